// measure.mjs — the web figures in docs/PERFORMANCE.md: the size of each file in dist (raw and gzip -9),
// the time from navigation start to the first drawn frame in headless Chromium (SwiftShader), and the
// first recompute (the menu bar's "recomputed in" figure on the first frame), over RUNS fresh page
// loads (default 7; each in a new browser context, so nothing is cached). "Complete" is the first
// of three frames in a row with nothing waiting for a later frame (every panel on screen has its
// numbers, the layout settled); the recompute total is read at the third.
// Run: node tests/web/measure.mjs            (after make web; VERBOSE=1 prints each load's parts)
import { readFileSync } from "node:fs";
import zlib from "node:zlib";

import { distDir, launch, openPage, startServer } from "./harness.mjs";

const kb = (n) => (n / 1024).toFixed(1) + " KiB";
let rawTotal = 0, gzTotal = 0;
for (const f of ["occ.wasm", "occ.js", "index.html", "ui-font.ttf"]) {
  const buf = readFileSync(`${distDir}/${f}`);
  const gz = zlib.gzipSync(buf, { level: 9 }).length;
  rawTotal += buf.length;
  gzTotal += gz;
  console.log(`${f.padEnd(12)} ${kb(buf.length).padStart(11)} raw  ${kb(gz).padStart(10)} gzip -9`);
}
console.log(`${"total".padEnd(12)} ${kb(rawTotal).padStart(11)} raw  ${kb(gzTotal).padStart(10)} gzip -9`);

const runs = Number(process.env.RUNS || 7);
const server = await startServer();
const browser = await launch();
const times = [], firstRecompute = [], complete = [], completeMs = [], completeFrames = [], warm = [];
// The app's recompute figures (occ::ui::App::recompute_json), once a frame has left nothing waiting.
// Read once nothing has waited for three frames (a panel the settling layout brings on screen may
// start waiting again): the app's settled frame is the first of them, and its time the end of it.
const recompute = () => new Promise((done) => {
  const read = () => JSON.parse(Module.UTF8ToString(Module._occ_web_recompute()));
  const step = () => {
    const r = read();
    if (r.settled_frame > 0 && r.frames >= r.settled_frame + 2) done({ ...r, at: r.settled_at_ms });
    else requestAnimationFrame(step);
  };
  step();
});
try {
  for (let i = 0; i < runs; i++) {
    const { context, page } = await openPage(browser, server.url);
    times.push(await page.evaluate(() => occ.timing.firstFrameMs));
    const r = await page.evaluate(recompute);
    firstRecompute.push(r.first_frame_ms);
    complete.push(r.at);
    completeMs.push(r.ms);
    completeFrames.push(r.settled_frame);
    if (i === 0 || process.env.VERBOSE) console.log("parts of the first scenario's recompute:", r.parts.filter((p) => p.state !== "not shown").map((p) => `${p.part} ${p.ms.toFixed(2)} ms`).join(", "));
    if (i === runs - 1) {
      // Warm: registers and dynamic shared memory change every frame, so every part of the tab is recomputed.
      for (let f = 0; f < 90; f++) {
        const ms = await page.evaluate((k) => new Promise((done) => {
          occ.setState({ ...occ.state(), regs: 16 + (k * 7) % 200, smem_dynamic: 512 * (k % 60) });
          requestAnimationFrame(() => done(JSON.parse(Module.UTF8ToString(Module._occ_web_recompute())).ms));
        }), f);
        if (f >= 30) warm.push(ms);
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const stats = (xs, digits = 0) => {
  const v = [...xs].sort((a, b) => a - b);
  return `median ${v[Math.floor(v.length / 2)].toFixed(digits)} ms, min ${v[0].toFixed(digits)} ms, max ${v[v.length - 1].toFixed(digits)} ms`;
};
console.log(`first frame after navigation start (occ.ready), ${runs} loads: ${stats(times)}`);
console.log(`first recompute (the first frame's "recomputed in"): ${stats(firstRecompute, 2)}`);
console.log(`complete (no panel waiting) after navigation start: ${stats(complete)}, at frame ${Math.min(...completeFrames)}-${Math.max(...completeFrames)}; recompute then ${stats(completeMs, 2)}`);
console.log(`warm recompute, registers and dynamic shared memory changed every frame (every part of the tab), 60 frames: ${stats(warm, 2)}`);
