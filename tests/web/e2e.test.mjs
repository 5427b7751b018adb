// e2e.test.mjs — the browser page, end to end, in headless Debian Chromium (SwiftShader WebGL2).
// Run: node --test tests/web/   (needs build/web/dist and build/native/bin/occ; OCC_WEB_DIST and
// OCC_BIN override them, OCC_SEED the random configurations).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";

import { cliBatch, decodePng, distDir, occBin, openPage, pixelStats, rng, useBrowser, waitReady } from "./harness.mjs";

for (const f of ["index.html", "occ.js", "occ.wasm"])
  if (!existsSync(`${distDir}/${f}`)) throw new Error(`${distDir}/${f} is missing: build the page first (make web)`);

// The kernel inputs are the rows of the left column that end in a pair of small blue "-" "+" buttons
// (Block, Registers, Static shared, ...). Returns a point inside the text field of row `index`, found
// from the pixels, so the test follows layout changes instead of hard-coding coordinates.
function findStepperField(png, index) {
  const { width, height, bpp, pixels } = png;
  const blue = (x, y) => {
    const i = (y * width + x) * bpp, r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
    return b > 110 && b > r + 50 && g > r + 10;
  };
  const rows = [];   // [y, leftmost blue x] for pixel rows whose blue pixels look like two small buttons
  for (let y = 0; y < height; y++) {
    let count = 0, x0 = -1, x1 = -1;
    for (let x = 0; x < width * 0.4; x++) {
      if (!blue(x, y)) continue;
      count++;
      if (x0 < 0) x0 = x;
      x1 = x;
    }
    if (count >= 24 && count <= 80 && x1 - x0 <= 70 && x1 - x0 >= 30) rows.push([y, x0]);
  }
  const groups = [];
  for (const [y, x] of rows) {
    const g = groups[groups.length - 1];
    if (g && y - g.y1 <= 3) { g.y1 = y; } else groups.push({ y0: y, y1: y, x });
  }
  const g = groups.filter((r) => r.y1 - r.y0 >= 8)[index];
  return g && { x: g.x - 25, y: Math.round((g.y0 + g.y1) / 2) };
}

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

describe("page", () => {
  test("loads, draws the canvas, and reports no errors", async (t) => {
    const { context, page, errors } = await openPage(browser, server.url);
    try {
      const ms = await page.evaluate(() => occ.timing.firstFrameMs);
      t.diagnostic(`first frame ${ms.toFixed(0)} ms after navigation start`);
      assert.equal(await page.locator("#loading").isHidden(), true, "the loading indicator is gone");
      assert.equal(await page.locator("#fatal").isHidden(), true, "no error screen");
      const png = decodePng(await page.locator("#canvas").screenshot());
      const stats = pixelStats(png);
      t.diagnostic(`canvas ${png.width}x${png.height}: ${stats.colors} colours, ${(100 * stats.nonBackground).toFixed(1)}% non-background`);
      assert.ok(stats.colors > 50, `the canvas has drawn content (${stats.colors} colours)`);
      assert.ok(stats.nonBackground > 0.05, `more than 5% of the canvas is not background (${stats.nonBackground})`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("is crisp on HiDPI: the backing store follows devicePixelRatio and the window size", async () => {
    const { context, page } = await openPage(browser, server.url, { width: 900, height: 600, scale: 2 });
    try {
      const size = await page.evaluate(() => [document.getElementById("canvas").width, document.getElementById("canvas").height]);
      assert.deepEqual(size, [1800, 1200]);
      await page.setViewportSize({ width: 700, height: 500 });
      await page.waitForFunction(() => document.getElementById("canvas").width === 1400, null, { timeout: 5000 });
      assert.equal(await page.evaluate(() => document.getElementById("canvas").height), 1000);
    } finally {
      await context.close();
    }
  });
});

describe("window.occ JS API", () => {
  test("occupancy() gives the CLI's JSON on 400 random requests (at least 200 valid configurations)", async (t) => {
    assert.ok(existsSync(occBin), `${occBin} is missing: build the CLI first (make native) or set OCC_BIN`);
    const seed = Number(process.env.OCC_SEED || 20261130);
    const r = rng(seed);
    const { context, page } = await openPage(browser, server.url);
    try {
      const gpus = (await page.evaluate(() => occ.gpus())).gpus.map((g) => g.name);
      assert.ok(gpus.length > 10);
      const ccs = ["3.5", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0", "sm_86"];
      const sizes = [0, 1, 1024, 4096, 12345, 16384, 24576, "8K", "1.5K", "0x400"];
      const oddSizes = [49152, 65536, 100000, 163840, 232448, "48K", "96KiB", "-5", "lots"];
      const lines = [];
      for (let i = 0; i < 400; i++) {
        const q = { id: i };
        const odd = r.chance(0.2);   // one in five requests has an input the model or the parser rejects
        if (r.chance(0.8)) q.gpu = r.pick(gpus); else q.cc = r.pick(odd && r.chance(0.3) ? ["4.0", "sm_xx", "11.7"] : ccs);
        if (r.chance(0.15)) q.block = [r.int(1, 32), r.int(1, 16), r.int(1, 2)];
        else q.threads = odd && r.chance(0.3) ? r.pick([0, -3, 1025, 2048, "12x"]) : r.chance(0.2) ? String(r.int(1, 1024)) : r.int(1, 1024);
        const threads = q.block ? q.block[0] * q.block[1] * q.block[2] : Math.max(1, Number.parseInt(q.threads) || 1);
        const fits = Math.min(255, Math.floor(65536 / (32 * Math.ceil(threads / 32))));   // registers that fit one block
        q.regs = odd && r.chance(0.3) ? r.pick([256, -1, 300]) : r.int(0, r.chance(0.85) ? fits : 255);
        if (r.chance(0.4)) q.smem_static = r.pick(odd && r.chance(0.5) ? oddSizes : sizes);
        if (r.chance(0.6)) q.smem_dynamic = r.pick(odd && r.chance(0.5) ? oddSizes : sizes);
        if (r.chance(0.3)) q.optin = r.chance(0.5);
        if (r.chance(0.2)) q.carveout = r.pick(odd ? [101, -2, 50] : [-1, 0, 25, 50, 100]);
        if (r.chance(0.15)) q.cache_config = r.pick(odd ? ["bogus", "l1"] : ["none", "shared", "l1", "equal"]);
        if (r.chance(0.15)) q.barriers = odd ? r.int(0, 40) : r.int(1, 16);
        if (r.chance(0.1)) q.partitioned_gc = r.pick(["off", "on", "strict"]);
        if (r.chance(0.1)) q.grid = r.int(1, 100000);
        if (odd && r.chance(0.1)) q.thread = 5;   // unknown field: both must give the same error
        lines.push(JSON.stringify(q));
      }
      lines.push("{not json", "[]", "{}", '{"gpu": "no-such-gpu"}');
      const cli = cliBatch("occupancy", lines);
      assert.equal(cli.length, lines.length, "the CLI answered every line");
      const web = await page.evaluate((ls) => ls.map((l) => occ.occupancy(l)), lines);
      const asObjects = await page.evaluate((ls) => ls.slice(0, 400).map((l) => occ.occupancy(JSON.parse(l))), lines);
      let ok = 0;
      for (let i = 0; i < lines.length; i++) {
        assert.deepStrictEqual(web[i], cli[i], `line ${i} (seed ${seed}): ${lines[i]}`);
        if (i < 400) assert.deepStrictEqual(asObjects[i], cli[i], `line ${i} as an object`);
        if (web[i].error === null && web[i].blocks_per_sm > 0) ok++;
      }
      t.diagnostic(`${lines.length} requests, ${ok} valid configurations, all equal to \`occ occupancy --batch\``);
      assert.ok(ok >= 200, `at least 200 valid configurations compared (${ok})`);
    } finally {
      await context.close();
    }
  });

  test("other kinds answer like the CLI (an error object for kinds not built yet)", async () => {
    const { context, page } = await openPage(browser, server.url);
    try {
      for (const kind of ["coalesce", "banks", "roofline"]) {
        const web = await page.evaluate((k) => occ[k]({}), kind);
        assert.equal(typeof web, "object");
        const cli = cliBatch(kind, ["{}"]);   // no output when this CLI has no such subcommand yet
        if (cli.length === 1) assert.deepStrictEqual(web, cli[0], kind);
        else if (typeof web.error === "string") assert.match(web.error, /unknown request kind|:/, kind);
      }
    } finally {
      await context.close();
    }
  });

  test("the URL query codec round-trips scenarios", async () => {
    const { context, page } = await openPage(browser, server.url);
    try {
      const cases = [
        { gpu: "H100-SXM5-80GB", threads: 128, regs: 96, optin: true, ui: { theme: "light", views: { sm: false } } },
        { cc: "8.6", block: [32, 8, 1], smem_dynamic: "48K", name: "256", note: "a b&c=d+e%#", empty: "", nothing: null, nested: {} },
        { "odd key": 1, list: [1, { x: "y" }] },
      ];
      for (const c of cases) {
        const back = await page.evaluate((o) => occ.decodeQuery(occ.encodeQuery(o)), c);
        assert.deepStrictEqual(back, c);
      }
      assert.equal(await page.evaluate(() => occ.encodeQuery({ gpu: "A100", threads: 256, ui: { theme: "dark" } })), "gpu=A100&threads=256&ui.theme=dark");
      // Property: decode(encode(x)) == x for random objects (odd strings, odd keys, nesting, arrays).
      const r = rng(Number(process.env.OCC_SEED || 7));
      const strs = ["", "a", "256", "'x", "[1]", "{}", "true", "null", "a b&c=d+e%#?", "µs ≤ 4 ms", "-1e3", " 5", "x.y", "%41"];
      const keys = ["gpu", "threads", "regs", "ui", "a-b", "x_1", "views"];
      const oddKeys = ["a b", "x.y", "", "é", "a=b"];
      const value = (d) => {
        const k = r.int(0, d > 2 ? 4 : 6);
        if (k === 0) return r.int(-1e6, 1e6);
        if (k === 1) return r.next() * 1e4 - 5e3;
        if (k === 2) return r.chance(0.5);
        if (k === 3) return r.chance(0.3) ? null : r.pick(strs);
        if (k === 4) return r.pick(strs);
        if (k === 5) return Array.from({ length: r.int(0, 3) }, () => value(d + 1));
        return object(d + 1);
      };
      const object = (d) => {
        const o = {};
        for (let i = r.int(0, 4); i > 0; i--) o[r.chance(0.05) ? r.pick(oddKeys) : r.pick(keys)] = value(d);
        return o;
      };
      const objs = Array.from({ length: 300 }, () => object(0));
      const backs = await page.evaluate((os) => os.map((o) => occ.decodeQuery(occ.encodeQuery(o))), objs);
      for (let i = 0; i < objs.length; i++) assert.deepStrictEqual(backs[i], objs[i], JSON.stringify(objs[i]));
      const bad = await page.evaluate(() => { try { occ.decodeQuery("threads=%zz"); return ""; } catch (e) { return e.message; } });
      assert.match(bad, /percent/);
    } finally {
      await context.close();
    }
  });
});

describe("scenario in the URL", () => {
  test("a scenario in the hash is restored after reload, and the state follows the hash", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=H100-SXM5-80GB&threads=128&regs=96&smem_dynamic=48K&ui.theme=light");
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.gpu, "H100-SXM5-80GB");
      assert.equal(s.threads, 128);
      assert.equal(s.regs, 96);
      assert.equal(s.smem_dynamic, 49152);
      assert.equal(s.ui.theme, "light");
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s, "same scenario after reload");
      assert.match(await page.evaluate(() => location.hash), /gpu=H100-SXM5-80GB/);
      assert.match(await page.evaluate(() => location.hash), /regs=96/);
      assert.equal(await page.evaluate(() => occ.lastNotice), "");

      // A link opened in a fresh tab (same storage) shows the link's scenario, not the stored one.
      const other = await context.newPage();
      await other.goto(server.url + "#gpu=A100-SXM4-80GB&threads=512&regs=40");
      await waitReady(other);
      const o = await other.evaluate(() => occ.state());
      assert.equal(o.threads, 512);
      assert.equal(o.regs, 40);
      assert.equal(o.ui.theme, "dark", "fields a link leaves out take the defaults");
    } finally {
      await context.close();
    }
  });

  test("the last scenario is kept in localStorage when the URL has no hash", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=96&regs=200");
    try {
      const s = await page.evaluate(() => occ.state());
      await page.goto(server.url);
      await waitReady(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s);
      assert.match(await page.evaluate(() => location.hash), /threads=96/, "and the hash is written back");
    } finally {
      await context.close();
    }
  });

  test("back and forward move between scenarios", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=32");
    try {
      await page.evaluate(() => occ.setState({ gpu: "A100-SXM4-80GB", threads: 256, regs: 64 }));
      await page.waitForTimeout(1100);   // a pause makes a new history entry (a burst replaces one)
      await page.evaluate(() => occ.setState({ gpu: "A100-SXM4-80GB", threads: 256, regs: 128 }));
      assert.equal(await page.evaluate(() => occ.state().regs), 128);
      await page.goBack();
      await page.waitForFunction(() => occ.state().regs === 64, null, { timeout: 5000 });
      await page.goBack();
      await page.waitForFunction(() => occ.state().regs === 32, null, { timeout: 5000 });
      await page.goForward();
      await page.waitForFunction(() => occ.state().regs === 64, null, { timeout: 5000 });
    } finally {
      await context.close();
    }
  });

  test("a link with ui.tab=advisor reopens the Advisor tab with its inputs, also after a reload", async () => {
    const link = "#gpu=H100-SXM5-80GB&threads=256&regs=64&ui.tab=advisor&ui.advisor.block_size_limit=512&ui.advisor.target_blocks=3" +
                 "&ui.advisor.cluster_size=12&ui.advisor.non_portable=true";
    const { context, page, errors } = await openPage(browser, server.url + link);
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.ui.tab, "advisor");
      assert.equal(findStepperField(decodePng(await page.locator("#canvas").screenshot()), 0), undefined, "the Occupancy tab's inputs are not drawn");
      assert.deepStrictEqual(s.ui.advisor, { smem_per_thread: 0, block_size_limit: 512, target_blocks: 3, cluster_size: 12, non_portable: true });
      assert.equal(await page.evaluate(() => occ.lastNotice), "");
      // The advisor fields are the advise request's: with the launch (smem_dynamic named smem_fixed
      // there) they make a request the CLI answers.
      const req = { ...s, ...s.ui.advisor, smem_fixed: s.smem_dynamic };
      delete req.ui;
      delete req.smem_dynamic;
      assert.equal(cliBatch("advise", [JSON.stringify(req)])[0].error, null);
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s, "same tab and inputs after reload");
      await page.goto(server.url);   // no hash: localStorage brings the scenario back
      await waitReady(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s, "same tab and inputs from localStorage");
      assert.match(await page.evaluate(() => location.hash), /ui\.tab=advisor/);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("a link with ui.tab=roofline reopens the Roofline tab with its inputs; the roofline follows the GPU until one is picked", async () => {
    const link = "#gpu=RTX-4090&ui.tab=roofline&ui.roofline.dtype=bf16&ui.roofline.m=8192&ui.roofline.elements=1000000" +
                 "&ui.roofline.compare=" + encodeURIComponent('["H100-SXM5-80GB"]');
    const { context, page, errors } = await openPage(browser, server.url + link);
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.ui.tab, "roofline");
      assert.equal(findStepperField(decodePng(await page.locator("#canvas").screenshot()), 0), undefined, "the Occupancy tab's inputs are not drawn");
      assert.equal(s.ui.roofline.dtype, "bf16");
      assert.equal(s.ui.roofline.m, 8192);
      assert.equal(s.ui.roofline.elements, 1000000);
      assert.deepStrictEqual(s.ui.roofline.compare, ["H100-SXM5-80GB"]);
      assert.equal(s.ui.roofline.gpu, undefined, "no device picked: the roofline follows the scenario's GPU");
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s, "same tab and inputs after reload");
      const picked = await page.evaluate(() => occ.setState({ ...occ.state(), ui: { ...occ.state().ui, roofline: { gpu: "a100" } } }));
      assert.equal(picked.ui.roofline.gpu, "A100-SXM4-80GB", "a picked device is stored by its canonical name");
      await page.goto(server.url);
      await waitReady(page);
      assert.equal((await page.evaluate(() => occ.state())).ui.roofline.gpu, "A100-SXM4-80GB", "kept in localStorage");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("window.occ has a function for every request kind, each answering as `occ KIND --batch`", async () => {
    const { context, page } = await openPage(browser, server.url);
    try {
      const missing = await page.evaluate(() => ["occupancy", "advise", "waves", "clusters", "ptxas", "coalesce", "banks", "roofline",
        "ncu", "gpus", "roofline_devices"].filter((k) => typeof occ[k] !== "function"));
      assert.deepEqual(missing, []);
      const line = JSON.stringify({ gpu: "H100", threads: 128, regs: 96, max_threads: 256 });
      const web = await page.evaluate((l) => occ.advise(l), line);
      assert.deepStrictEqual(web, cliBatch("advise", [line])[0]);
      assert.equal(web.error, null);
      assert.equal(web.input.max_threads, 256);
    } finally {
      await context.close();
    }
  });

  test("a link carries the Tensor Memory columns and the setmaxnreg plan; the page answers as the CLI", async () => {
    const { context, page } = await openPage(browser, server.url +
      "#gpu=B200&threads=384&regs=168&tmem_columns=256&warpgroup_regs=[24,240,240]");
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.tmem_columns, 256);
      assert.deepStrictEqual(s.warpgroup_regs, [24, 240, 240]);
      const line = JSON.stringify({ gpu: s.gpu, threads: 384, regs: 168, tmem_columns: 256, warpgroup_regs: [24, 240, 240] });
      const web = await page.evaluate((l) => occ.occupancy(l), line);
      assert.deepStrictEqual(web, cliBatch("occupancy", [line])[0]);
      assert.equal(web.register_pool.fits, true);
      assert.equal(web.effective.blocks_per_sm, 1);   // 384 threads x 168 regs: 1 block resident; 512 / 256 = 2 would fit
      assert.equal(web.limits.tmem, 2);
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual((await page.evaluate(() => occ.state())).warpgroup_regs, [24, 240, 240], "kept after reload");
    } finally {
      await context.close();
    }
  });

  test("a link carries ui.memory whole: a coalesce request that `occ coalesce --batch` takes as it is", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=H100-SXM5-80GB&ui.tab=memory&ui.memory.pattern=affine&ui.memory.stride=3");
    try {
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.ui.tab, "memory");
      assert.equal(s.ui.memory.pattern, "affine");
      assert.equal(s.ui.memory.stride, 3);
      assert.equal(s.ui.memory.order, undefined, "no 2-D fields mixed in from the default tile");
      const line = JSON.stringify({ ...s.ui.memory, gpu: s.gpu });
      assert.deepStrictEqual(await page.evaluate((l) => occ.coalesce(l), line), cliBatch("coalesce", [line])[0]);
      assert.equal(cliBatch("coalesce", [line])[0].error, null);
      // Edited in the app, the link holds the whole pattern again.
      await page.evaluate(() => occ.setState({ ...occ.state(), ui: { ...occ.state().ui, memory: { pattern: "gather", range: 4096, seed: 7 } } }));
      await page.reload();
      await waitReady(page);
      assert.deepStrictEqual((await page.evaluate(() => occ.state())).ui.memory.range, 4096);
    } finally {
      await context.close();
    }
  });

  test("a malformed hash shows a notice and falls back to the default scenario, never a blank page", async () => {
    const fresh = await openPage(browser, server.url);
    const defaults = await fresh.page.evaluate(() => occ.state());
    await fresh.context.close();
    const hashes = ["#threads=%zz", "#regs=[1,", "#threads=1&threads=2", "#gpu=A100-SXM4-80GB&regs=lots", "#bogus_field=1", "#%7Bnope",
                    "#ui.tab=advisor&ui.advisor.target_blocks=0", "#ui.tab=sideways", "#ui.roofline.gpu=NoSuchGPU", "#ui.memory.stride=lots"];
    for (const hash of hashes) {
      const { context, page, errors } = await openPage(browser, server.url + hash);
      try {
        const notice = await page.evaluate(() => occ.lastNotice);
        assert.match(notice, /could not be read/, `${hash}: notice shown`);
        assert.deepStrictEqual(await page.evaluate(() => occ.state()), defaults, `${hash}: default scenario`);
        const stats = pixelStats(decodePng(await page.locator("#canvas").screenshot()));
        assert.ok(stats.colors > 50 && stats.nonBackground > 0.05, `${hash}: the page is drawn`);
        assert.equal(await page.locator("#fatal").isHidden(), true);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    }
  });

  test("an edited hash with an error keeps the current scenario and shows the notice", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=64&regs=48");
    try {
      const s = await page.evaluate(() => occ.state());
      await page.evaluate(() => { location.hash = "#threads=abc"; });
      await page.waitForFunction(() => occ.lastNotice !== "", null, { timeout: 5000 });
      assert.deepStrictEqual(await page.evaluate(() => occ.state()), s);
    } finally {
      await context.close();
    }
  });
});

describe("errors", () => {
  test("an internal error shows a message with a reset button that clears the saved scenario and the link", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=64&regs=200");
    try {
      await page.evaluate(() => occShell.fatal("test: simulated internal error"));
      assert.equal(await page.locator("#fatal").isVisible(), true);
      assert.match(await page.locator("#fatal-detail").textContent(), /simulated internal error/);
      await page.click("#reset");
      await page.waitForURL((u) => u.hash === "" || u.hash.includes("threads=256"));
      await waitReady(page);
      const s = await page.evaluate(() => occ.state());
      assert.equal(s.threads, 256, "back to the default scenario");
      assert.equal(s.regs, 32);
      assert.equal(await page.locator("#fatal").isHidden(), true);
    } finally {
      await context.close();
    }
  });
});

describe("real UI input", () => {
  test("typing into the Registers field with mouse and keyboard changes the result", async (t) => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=32", { width: 1280, height: 800 });
    try {
      const before = await page.evaluate(() => occ.occupancy({ gpu: occ.state().gpu, threads: occ.state().threads, regs: occ.state().regs }));
      const field = findStepperField(decodePng(await page.locator("#canvas").screenshot()), 1);
      assert.ok(field, "found the kernel inputs (rows with -/+ buttons) in the left column");
      t.diagnostic(`Registers field at ${field.x},${field.y}`);
      // Click into the field, select all, type, Enter: the events a person makes.
      await page.mouse.click(field.x, field.y);
      await page.keyboard.press("Control+A");
      await page.keyboard.type("128");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => occ.state().regs === 128, null, { timeout: 5000 });
      const s = await page.evaluate(() => occ.state());
      const res = await page.evaluate((st) => occ.occupancy({ gpu: st.gpu, threads: st.threads, regs: st.regs }), s);
      assert.notEqual(res.occupancy, before.occupancy, "the result changed");
      assert.match(await page.evaluate(() => location.hash), /regs=128/, "and the link follows");
    } finally {
      await context.close();
    }
  });

  test("the Copy Markdown button puts the result table on the clipboard", async () => {
    const { context, page } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=64");
    try {
      await page.click("#copy-md");
      await page.waitForFunction(() => typeof occ.lastCopied === "string", null, { timeout: 5000 });
      const md = await page.evaluate(() => occ.lastCopied);
      assert.match(md, /^\| Quantity \| Value \|/);
      // The app's rows (occ::io::occupancy_table), worded as the CLI prints them.
      assert.match(md, /\| Occupancy \| 50% \(32 of 64 warps per SM\) \|/);
      assert.match(md, /\| Blocks per SM allowed by Registers \| 4 blocks \|/);
      const cli = spawnSync(occBin, ["occupancy", "--gpu", "A100-SXM4-80GB", "--threads", "256", "--regs", "64"], { encoding: "utf8" }).stdout;
      for (const key of ["Registers / warp", "Shared mem / block", "Driver's config"]) {
        const m = md.match(new RegExp("\\| " + key.replace(/[/']/g, "\\$&") + " \\| (.*) \\|"));
        assert.ok(m, key + " is in the table");
        assert.ok(cli.includes(m[1]), key + ": the CLI prints the same words: " + m[1]);
      }
      await page.click("#copy-link");
      await page.waitForFunction(() => occ.lastCopied.startsWith("http"), null, { timeout: 5000 });
      assert.match(await page.evaluate(() => occ.lastCopied), /#gpu=A100-SXM4-80GB&threads=256&regs=64/);
      assert.match(await page.evaluate(() => occ.exportTable("csv")), /^quantity,value\n/);
    } finally {
      await context.close();
    }
  });
});
