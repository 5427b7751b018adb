// memory_tile.test.mjs — the Memory tab's tile panel in the link: ui.memory_tile (a banks request of
// pattern tile without the device) is read from the hash, kept through a reload and in localStorage,
// gives `occ banks --batch` the same answer as the page, and a bad value is a notice naming the field.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { cliBatch, openPage, useBrowser, waitReady } from "./harness.mjs";

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

describe("tile panel in the link", () => {
  test("a link's ui.memory_tile patches the default tile, survives a reload and is a banks --batch line", async () => {
    const link = "#gpu=H100-SXM5-80GB&ui.tab=memory&ui.memory_tile.cute_swizzle=" + encodeURIComponent("Swizzle<3,3,3>") +
                 "&ui.memory_tile.tile_access=" + encodeURIComponent('["ldmatrix.x4","cp_async"]');
    const { context, page, errors } = await openPage(browser, server.url + link);
    try {
      const s = await page.evaluate(() => occ.state());
      assert.deepStrictEqual(s.ui.memory_tile, { pattern: "tile", tile: [64, 64], elem_bytes: 2, access_bytes: 16,
                                                 tile_access: ["ldmatrix.x4", "cp_async"], cute_swizzle: "Swizzle<3,3,3>" });
      assert.match(await page.evaluate(() => location.hash), /ui\.memory_tile\.cute_swizzle=/, "the hash keeps it");
      const line = JSON.stringify({ ...s.ui.memory_tile, gpu: s.gpu });
      const [cli] = cliBatch("banks", [line]);
      assert.equal(cli.error, null);
      assert.deepStrictEqual(await page.evaluate((l) => occ.banks(l), line), cli);
      assert.equal(cli.conflicts, 0, "Swizzle<3,3,3> on 128-byte half rows: no conflict");
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual((await page.evaluate(() => occ.state())).ui.memory_tile, s.ui.memory_tile, "same tile after reload");
      await page.goto(server.url);   // no hash: localStorage brings it back
      await waitReady(page);
      assert.deepStrictEqual((await page.evaluate(() => occ.state())).ui.memory_tile, s.ui.memory_tile, "kept in localStorage");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("a bad tile value is a notice naming the field, and the panel keeps the default tile", async () => {
    const fresh = await openPage(browser, server.url);
    const defaults = await fresh.page.evaluate(() => occ.state());
    await fresh.context.close();
    const { context, page } = await openPage(browser, server.url + "#ui.tab=memory&ui.memory_tile.tile=" + encodeURIComponent("[64,2000]"));
    try {
      const notice = await page.evaluate(() => occ.lastNotice);
      assert.match(notice, /ui\.memory_tile\.tile: rows and columns must each be an integer 1\.\.1024, got 2000/);
      assert.deepStrictEqual((await page.evaluate(() => occ.state())).ui.memory_tile, defaults.ui.memory_tile);
    } finally {
      await context.close();
    }
  });
});
