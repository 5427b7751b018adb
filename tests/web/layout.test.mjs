// layout.test.mjs — the page on every screen: at each laptop, desktop, 4K, tablet and phone size the
// e2e contract names, every tab reports no text cut by its box and no two texts drawn over each other
// (window.occ.layout(), the app's own check of the frame just drawn); on a touch phone a drag scrolls
// the page and a tap on a number field opens the on-screen keyboard's field and takes what is typed;
// states beyond the defaults (Expression mode, the tile panel, a 3-D block, a pasted compiler log)
// pass the same check. A label ImGui shortened with an ellipsis counts as cut. One browser, one page per size.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { frames, root, settle, useBrowser, withPage } from "./harness.mjs";

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

const screens = [
  ...[[1280, 720], [1366, 768], [1440, 900], [1920, 1080], [2560, 1440]].flatMap(([width, height]) =>
    [1, 2].map((scale) => ({ width, height, scale, touch: false }))),
  { width: 768, height: 1024, scale: 3, touch: true },
  { width: 390, height: 844, scale: 3, touch: true },
];
const tabs = ["occupancy", "memory", "advisor", "roofline"];

async function showTab(page, tab) {
  await page.evaluate((t) => occ.setState({ ...occ.state(), ui: { ...occ.state().ui, tab: t } }), tab);
  await settle(page, 4);   // the tab bar switches a frame later; panels may compute over frames
}

describe("layout", () => {
  for (const sc of screens) {
    test(`${sc.width}x${sc.height} at ${sc.scale}x${sc.touch ? " (touch)" : ""}: every tab, nothing cut, nothing drawn over`, async () => {
      await withPage(browser, server.url, sc, async ({ page, errors }) => {
        const canvas = await page.evaluate(() => [document.getElementById("canvas").width, document.getElementById("canvas").height]);
        assert.deepEqual(canvas, [sc.width * sc.scale, sc.height * sc.scale], "the canvas fills the window at the pixel ratio");
        for (const tab of tabs) {
          await showTab(page, tab);
          assert.equal(await page.evaluate(() => occ.state().ui.tab), tab);
          const r = await page.evaluate(() => occ.layout());
          assert.deepEqual(r.clipped, [], `${tab}: texts cut by their box`);
          assert.deepEqual(r.overlaps, [], `${tab}: texts drawn over each other`);
        }
        assert.deepEqual(errors, []);
      });
    });
  }

  test("phone: a drag scrolls the page, a tap on the block size opens the keyboard and takes the digits typed", async () => {
    await withPage(browser, server.url, { width: 390, height: 844, scale: 3, touch: true }, async ({ page }) => {
      const cdp = await page.context().newCDPSession(page);
      const touch = (type, x, y) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
      // Tap down the value column from the kernel inputs' heading until a tap lands in the block
      // size (the first number field); type 128 into it.
      let typed = false;
      for (let y = 400; y < 560 && !typed; y += 10) {
        await touch("touchStart", 195, y);
        await touch("touchEnd", 195, y);
        await frames(page, 2);
        if (await page.evaluate(() => document.activeElement && document.activeElement.id === "ime")) {
          const before = await page.evaluate(() => occ.state().threads);
          await page.keyboard.insertText("128");
          await frames(page, 3);
          typed = (await page.evaluate(() => occ.state().threads)) !== before;
          if (!typed) {   // the search box: clear it, tap elsewhere
            for (let i = 0; i < 3; i++) await page.evaluate(() => document.getElementById("ime").dispatchEvent(new InputEvent("beforeinput", { inputType: "deleteContentBackward", cancelable: true })));
            await page.waitForTimeout(120);
          }
        }
      }
      assert.ok(typed, "a tap on the block size field took the focus and the digits typed reached it");
      assert.equal(await page.evaluate(() => occ.state().threads), 128);
      // A drag upward scrolls the column: what is under the same point changes, so the layout check
      // still passes and the page moved (the summary stays).
      const shot = async () => (await page.locator("#canvas").screenshot()).toString("base64");
      const a = await shot();
      await touch("touchStart", 200, 700);
      for (let y = 690; y >= 300; y -= 30) await touch("touchMove", 200, y);
      await touch("touchEnd", 200, 300);
      await frames(page, 3);
      assert.notEqual(await shot(), a, "the drag scrolled the page");
      const r = await page.evaluate(() => occ.layout());
      assert.deepEqual(r.clipped, []);
      assert.deepEqual(r.overlaps, []);
    });
  });

  // States that show more than the defaults (the headless test checks them at every size too).
  const log = readFileSync(path.join(root, "tests/fixtures/ptxas/kernels_sm80.log"), "utf8");
  const states = [
    ["Memory: Expression mode, every tile access, CuTe swizzle", (st) => ({
      ...st, ui: { ...st.ui, tab: "memory",
        memory: { pattern: "expr", expr: "tile[threadIdx.y][threadIdx.x ^ threadIdx.y]", array: "float tile[32][33]", consts: "", block: [32, 32, 1] },
        memory_tile: { pattern: "tile", tile: [128, 128], elem_bytes: 2, access_bytes: 16, tile_access: ["ldmatrix.x4.trans", "row", "cp_async", "column"], cute_swizzle: "Swizzle<2,3,3>" } } })],
    ["Occupancy: a 3-D block that does not fit", (st) => ({ ...st, block: [16, 8, 8], threads: undefined, smem_dynamic: 99999, ui: { ...st.ui, tab: "occupancy" } })],
  ];
  for (const sc of [{ width: 1366, height: 768, scale: 1, touch: false }, { width: 390, height: 844, scale: 3, touch: true }]) {
    test(`${sc.width}x${sc.height} at ${sc.scale}x: states beyond the defaults, nothing cut (ellipses included), nothing drawn over`, async () => {
      await withPage(browser, server.url, sc, async ({ page, errors }) => {
        for (const [name, make] of states) {
          await page.evaluate((src) => occ.setState((0, eval)(src)(occ.state())), make.toString());
          await settle(page, 5);
          const r = await page.evaluate(() => occ.layout());
          assert.deepEqual(r.clipped, [], `${name}: texts cut by their box`);
          assert.deepEqual(r.overlaps, [], `${name}: texts drawn over each other`);
        }
        // A compiler log pasted on the page opens the Advisor with the log's kernels.
        await page.evaluate((text) => {
          const data = new DataTransfer();
          data.setData("text/plain", text);
          document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
        }, log);
        await settle(page, 5);
        assert.equal(await page.evaluate(() => occ.state().ui.tab), "advisor");
        const r = await page.evaluate(() => occ.layout());
        assert.deepEqual(r.clipped, [], "Advisor with an imported log: texts cut by their box");
        assert.deepEqual(r.overlaps, [], "Advisor with an imported log: texts drawn over each other");
        assert.deepEqual(errors, []);
      });
    });
  }
});
