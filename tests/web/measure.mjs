// measure.mjs — the web figures in docs/PERFORMANCE.md: the size of each file in dist (raw and gzip -9)
// and the time from navigation start to the first drawn frame in headless Chromium (SwiftShader),
// over RUNS fresh page loads (default 7; each in a new browser context, so nothing is cached).
// Run: node tests/web/measure.mjs            (after make web)
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
const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const { context, page } = await openPage(browser, server.url);
    times.push(await page.evaluate(() => occ.timing.firstFrameMs));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`first frame after navigation start, ${runs} loads: median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`);
