// typing.test.mjs — what a new user meets first, with real mouse, keyboard and wheel events:
//  - the number fields read what the CLI reads ("48K", "48KiB", "49152", "0xC000"): the page's answer
//    equals `occ occupancy --batch`'s for each form; a form the CLI refuses, or a value beyond the
//    device, shows the CLI's own message beside the field and keeps the last good value;
//  - the wheel scrolls the way the browser does: down is down, one notch moves a notch (not to the
//    end), and it takes the Advisor's table back into view, where the test reads it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { cliBatch, frames, openPage, root, settle, useBrowser } from "./harness.mjs";

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

const texts = async (page) => (await page.evaluate(() => occ.layout())).texts;
const find = (all, text) => all.find((t) => t.text === text);
const joined = (all) => all.map((t) => t.text).join(" ").replace(/\s+/g, " ");

// The field on the row of `label`: the first text right of the label on the same line (its value).
async function fieldOf(page, label) {
  const all = await texts(page);
  const l = find(all, label);
  assert.ok(l, `the "${label}" row is drawn`);
  const [lx, ly, lw, lh] = l.rect;
  const right = all.filter((t) => Math.abs(t.rect[1] - ly) < lh / 2 && t.rect[0] > lx + lw).sort((a, b) => a.rect[0] - b.rect[0]);
  assert.ok(right.length, `a field beside "${label}"`);
  const [x, y, , h] = right[0].rect;
  return { x: x + 4, y: y + h / 2 };
}

// ImGui 1.86 polls mouse buttons and keys once a frame: a press is held over frames, as a hand does.
async function press(page, key) {
  await page.keyboard.down(key);
  await frames(page, 2);
  await page.keyboard.up(key);
}

async function typeInto(page, label, text) {
  const f = await fieldOf(page, label);
  await page.mouse.move(f.x, f.y);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 2);
  await page.keyboard.down("Control");
  await press(page, "A");
  await page.keyboard.up("Control");
  await page.keyboard.type(text);
  await press(page, "Enter");
  await frames(page, 4);
}

const base = { gpu: "A100-SXM4-80GB", threads: 256, regs: 32 };

describe("typed numbers read as the CLI reads them", () => {
  test("Dynamic shared: 48K, 48KiB, 49152, 0xC000 give the CLI's answer; 48X and 300000 keep the last good value", async () => {
    const { context, page, errors } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=32&smem_dynamic=0",
                                                     { width: 1366, height: 768 });
    try {
      for (const form of ["48K", "48KiB", "49152", "0xC000", "48k"]) {
        await typeInto(page, "Dynamic shared", "0");
        await typeInto(page, "Dynamic shared", form);
        const s = await page.evaluate(() => occ.state());
        assert.equal(s.smem_dynamic, 49152, `${form} is 48 KiB`);
        const [cli] = cliBatch("occupancy", [JSON.stringify({ ...base, smem_dynamic: form })]);
        const web = await page.evaluate((st) => occ.occupancy({ gpu: st.gpu, threads: st.threads, regs: st.regs, smem_dynamic: st.smem_dynamic }), s);
        assert.equal(web.occupancy, cli.occupancy, form);
        assert.equal(web.blocks_per_sm, cli.blocks_per_sm, form);
        assert.equal(cli.occupancy, 0.375, "A100, 256 threads, 48 KiB: 3 blocks = 37.5% (README)");
      }
      for (const bad of ["48X", "300000", "-4K"]) {
        await typeInto(page, "Dynamic shared", bad);
        const [cli] = cliBatch("occupancy", [JSON.stringify({ ...base, smem_dynamic: bad === "300000" ? 300000 : bad })]);
        assert.equal(typeof cli.error, "string", `the CLI refuses ${bad}`);
        assert.ok(joined(await texts(page)).includes(cli.error), `the page shows the CLI's message for ${bad}: ${cli.error}`);
        assert.equal((await page.evaluate(() => occ.state())).smem_dynamic, 49152, `${bad}: the last good value stays`);
      }
      // A good value clears the message.
      await typeInto(page, "Dynamic shared", "4K");
      assert.equal((await page.evaluate(() => occ.state())).smem_dynamic, 4096);
      assert.ok(!joined(await texts(page)).includes("smem_dynamic:"), "the message is gone");
      // Registers beyond the device: the CLI's message, the value kept.
      await typeInto(page, "Registers", "300");
      const [cli] = cliBatch("occupancy", [JSON.stringify({ ...base, regs: 300 })]);
      assert.ok(joined(await texts(page)).includes(cli.error), cli.error);
      assert.equal((await page.evaluate(() => occ.state())).regs, 32);
      // 0x40: the CLI takes hex for sizes, not for register counts; the page says what the CLI says.
      await typeInto(page, "Registers", "0x40");
      const [hex] = cliBatch("occupancy", [JSON.stringify({ ...base, regs: "0x40" })]);
      assert.ok(joined(await texts(page)).includes(hex.error), hex.error);
      await typeInto(page, "Registers", "64");
      assert.equal((await page.evaluate(() => occ.state())).regs, 64);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

describe("the wheel", () => {
  test("down is down, a notch at a time, and it brings the Advisor's table into view", async () => {
    const { context, page, errors } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=64&ui.tab=advisor",
                                                     { width: 1366, height: 768 });
    try {
      // A pasted log opens its panel at the top: the Advisor's tables are scrolled out above it.
      const log = readFileSync(path.join(root, "tests/fixtures/binaries/sm_80.log"), "utf8");
      await page.evaluate((t) => {
        const dt = new DataTransfer();
        dt.setData("text/plain", t);
        document.querySelector("#canvas").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      }, log);
      await settle(page);
      const y = async (text) => { const t = find(await texts(page), text); return t ? t.rect[1] : null; };
      const anchor = "k_many_regs(float*, int)";
      const y0 = await y(anchor);
      assert.ok(y0 !== null && y0 > 0 && y0 < 768, "the pasted kernels are in view");
      await page.mouse.move(683, 450);
      // The reveal left the page scrolled to its end: a notch up first, then a notch down.
      await page.mouse.wheel(0, -100);  // one notch up: the content moves down, by a notch
      await frames(page, 3);
      const y1 = await y(anchor);
      assert.ok(y1 !== null && y1 > y0 && y1 - y0 <= 200, `one notch up moved the content down a notch (${y0} -> ${y1})`);
      await page.mouse.wheel(0, 100);   // one notch down: back
      await frames(page, 3);
      assert.ok(Math.abs((await y(anchor)) - y0) <= 1, "one notch down brings it back");
      // Up, a notch at a time, to the Advisor's "Best block size" table.
      let notches = 0;
      while (((await y("Best block size")) ?? -1) < 60 && notches < 40) {
        await page.mouse.wheel(0, -100);
        await frames(page, 2);
        ++notches;
      }
      assert.ok(notches > 1, `took ${notches} notches: the wheel does not jump to the end`);
      const all = await texts(page);
      const head = find(all, "Best block size");
      assert.ok(head && head.rect[1] >= 60 && head.rect[1] < 768, "the table is in view");
      // Its "threads" row: now and best, as occ.advise() answers.
      const advice = await page.evaluate(() => occ.advise({ gpu: "A100-SXM4-80GB", threads: 256, regs: 64 }));
      const row = all.filter((t) => t.text === "threads" && t.rect[1] > head.rect[1]).sort((a, b) => a.rect[1] - b.rect[1])[0];
      assert.ok(row, "the threads row");
      const cells = all.filter((t) => Math.abs(t.rect[1] - row.rect[1]) < 2 && t.rect[0] > row.rect[0] && t.rect[0] < head.rect[0] + 440)
        .sort((a, b) => a.rect[0] - b.rect[0]).map((t) => t.text);
      assert.deepEqual(cells.slice(0, 2), ["256", String(advice.block_size.threads)]);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
