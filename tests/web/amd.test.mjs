// amd.test.mjs — an AMD GPU in the page: a link with an MI300X scenario opens it (occ.state() is the
// AMD occupancy request, io::amd_request_to_json), the app's table is the one `occ occupancy --batch`
// answers for that request, the link written back still names MI300X, and a bad AMD field in a link
// is a notice naming it while the page shows the default scenario.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { cliBatch, openPage, settle, useBrowser } from "./harness.mjs";

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

// MI300X (gfx942): 256 threads, 128 VGPRs, 40 SGPRs, 16 KiB LDS -> 4 workgroups per CU, 4 of 8 waves
// per SIMD (the VGPR file of 512 per lane, and 64 KiB LDS per CU; docs/AMD.md).
const LINK = "#gpu=MI300X&threads=256&regs=128&sgprs=40&smem_static=16K";

describe("AMD GPUs in the page", () => {
  test("an MI300X link: occ.state() is the AMD request and the app's answer is the CLI's", async () => {
    const { context, page, errors } = await openPage(browser, server.url + LINK, { width: 1366, height: 768 });
    try {
      await settle(page);
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.gpu, "MI300X");
      assert.equal(s.threads, 256);
      assert.equal(s.regs, 128);
      assert.equal(s.sgprs, 40);
      assert.equal(s.smem_static, 16384);
      assert.equal(s.wave_size, 0);
      assert.equal(s.cu_mode, false);
      assert.equal(s.carveout, undefined, "no NVIDIA-only field");
      assert.equal(await page.evaluate(() => occ.lastNotice), "");

      // The request without "ui" is a --batch line; the CLI's answer is the page's JS API's and the
      // app's exported table holds the same figures.
      const { ui, ...request } = s;
      assert.ok(ui);
      const [cli] = cliBatch("occupancy", [JSON.stringify(request)]);
      assert.equal(cli.waves_per_simd, 4);
      assert.equal(cli.blocks_per_sm, 4);
      const api = await page.evaluate((r) => occ.occupancy(r), request);
      assert.equal(api.waves_per_simd, cli.waves_per_simd);
      assert.equal(api.occupancy, cli.occupancy);
      const table = await page.evaluate(() => occ.exportTable("markdown"));
      assert.match(table, /\| Occupancy \| 4 of 8 waves per SIMD \(50%\) \|/);
      assert.match(table, /\| Workgroups per CU allowed by VGPRs \| 4 workgroups \|/);

      // The page draws it: the CU picture and the limits.
      const texts = (await page.evaluate(() => occ.layout())).texts.map((x) => x.text).join("\n");
      assert.match(texts, /One CU, filled with resident workgroups/);
      assert.match(texts, /Groups\/CU/);

      // The link written back is an AMD one, and it reloads to the same state.
      const link = await page.evaluate(() => occ.link());
      assert.match(link, /gpu=MI300X/);
      await page.reload();
      await settle(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s);
      assert.deepStrictEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("an RDNA link by target with wave64 and CU mode, and a bad AMD field", async () => {
    const { context, page } = await openPage(browser, server.url + "#arch=gfx1100&threads=128&regs=64&wave_size=64&cu_mode=true");
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.arch, "gfx1100");
      assert.equal(s.wave_size, 64);
      assert.equal(s.cu_mode, true);
      await page.evaluate(() => { location.hash = "#gpu=MI300X&cu_mode=true"; });
      await settle(page);
      assert.match(await page.evaluate(() => occ.lastNotice), /cu_mode/);
      assert.equal((await page.evaluate(() => occ.state())).arch, "gfx1100", "the state stays");
    } finally {
      await context.close();
    }
  });
});
