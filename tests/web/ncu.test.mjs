// ncu.test.mjs — Nsight Compute reports in the page: occ.ncu(text) answers exactly as
// `occ ncu --batch` does for every report fixture, and a report pasted or dropped on the page is the
// one the app shows (occ.appNcu()).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { cliBatch, openPage, root, useBrowser } from "./harness.mjs";

const fixtureDir = path.join(root, "tests/fixtures/ncu");
const reports = readdirSync(fixtureDir).filter((f) => /\.(txt|csv)$/.test(f)).sort();

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

describe("ncu", () => {
  test("occ.ncu(text) equals `occ ncu --batch` for every report fixture", async () => {
    assert.ok(reports.length >= 5, "the fixtures are there");
    const texts = reports.map((f) => readFileSync(path.join(fixtureDir, f), "utf8"));
    const cli = cliBatch("ncu", texts.map((text) => JSON.stringify({ text })));
    assert.equal(cli.length, texts.length);
    const { context, page, errors } = await openPage(browser, server.url);
    try {
      for (let i = 0; i < texts.length; i++) {
        const web = await page.evaluate((t) => occ.ncu(t), texts[i]);
        assert.deepEqual(web, cli[i], reports[i]);
      }
      // With request fields (the device given), as a request object and as text + fields.
      const req = { text: texts[0], gpu: "RTX-3090" };
      const [withGpu] = cliBatch("ncu", [JSON.stringify(req)]);
      assert.deepEqual(await page.evaluate((r) => occ.ncu(r), req), withGpu);
      assert.deepEqual(await page.evaluate((t) => occ.ncu(t, { gpu: "RTX-3090" }), texts[0]), withGpu);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("a report pasted on the page opens in the Advisor tab with its kernels", async () => {
    const text = readFileSync(path.join(fixtureDir, "default_two_kernels.txt"), "utf8");
    const { context, page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
    try {
      assert.equal(await page.evaluate(() => occ.appNcu()), null, "nothing pasted yet");
      await page.evaluate((t) => {
        const dt = new DataTransfer();
        dt.setData("text/plain", t);
        document.querySelector("#canvas").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      }, text);
      await page.waitForFunction(() => occ.appNcu() !== null, null, { timeout: 5000 });
      const shown = await page.evaluate(() => occ.appNcu());
      assert.deepEqual(shown, await page.evaluate((t) => occ.ncu(t), text), "the app shows what occ.ncu answers");
      assert.equal(shown.kernels.length, 2);
      assert.match(shown.kernels[1].name, /^tile_transpose/);
      // The fitted carveout rule answers the 64 KiB ncu printed (docs/NCU.md): no line differs.
      assert.deepEqual(shown.kernels[1].differences, []);
      await page.waitForFunction(() => occ.state().ui.tab === "advisor", null, { timeout: 5000 });
      assert.doesNotMatch(await page.evaluate(() => location.hash), /tile_transpose/, "the report stays out of the link");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("a report file dropped on the page is read too", async () => {
    const text = readFileSync(path.join(fixtureDir, "raw_page.csv"), "utf8");
    const { context, page, errors } = await openPage(browser, server.url);
    try {
      await page.evaluate((t) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], "report.csv", { type: "text/csv" }));
        document.querySelector("#canvas").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, text);
      await page.waitForFunction(() => occ.appNcu() !== null, null, { timeout: 5000 });
      const shown = await page.evaluate(() => occ.appNcu());
      assert.deepEqual(shown, await page.evaluate((t) => occ.ncu(t), text));
      assert.ok(shown.kernels.length >= 1);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
