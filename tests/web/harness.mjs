// harness.mjs — what the browser tests share: a static server for build/web/dist on 127.0.0.1 (a
// random free port), Debian's Chromium through playwright-core, the native CLI, and a PNG reader
// (node has zlib, so no PNG package is needed).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

import { after, before } from "node:test";

import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const distDir = path.resolve(process.env.OCC_WEB_DIST || path.join(root, "build/web/dist"));
export const occBin = path.resolve(process.env.OCC_BIN || path.join(root, "build/native/bin/occ"));
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

// Flags for a headless machine without a GPU: SwiftShader gives a real (software) WebGL2.
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--use-gl=swiftshader",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
  "--disable-background-networking",
  "--disable-dev-shm-usage",
];

const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png" };

export async function startServer(dir = distDir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream", "cache-control": "no-store" });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export async function launch() {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

// One server and one browser for a test file: started before its tests, closed after them.
// `use(server, browser)` receives them once they run.
export function useBrowser(use) {
  let server, browser;
  before(async () => {
    server = await startServer();
    browser = await launch();
    use(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

// Opens the page and waits for the first drawn frame. Collects page errors so tests can assert none.
// touch: a phone or tablet (touch events, no mouse hover, mobile viewport).
export async function openPage(browser, url, { width = 1280, height = 800, scale = 1, touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(url);
  await waitReady(page);
  return { context, page, errors };
}

// openPage, then fn({ context, page, errors }); the page is closed however fn ends.
export async function withPage(browser, url, options, fn) {
  const opened = await openPage(browser, url, options);
  try {
    return await fn(opened);
  } finally {
    await opened.context.close();
  }
}

// Lets the app draw `n` more frames.
export async function frames(page, n = 3) {
  await page.evaluate((k) => new Promise((done) => { const step = () => (k-- > 0 ? requestAnimationFrame(step) : done()); step(); }), n);
}

// At least `min` frames, then until the app has had nothing waiting for three frames in a row (its
// recompute log, App::recompute_json): panels that compute over several frames have their final text.
export async function settle(page, min = 3) {
  await frames(page, min);
  await page.evaluate(() => new Promise((done) => {
    let left = 120;
    const step = () => {
      const r = JSON.parse(Module.UTF8ToString(Module._occ_web_recompute()));
      if ((r.settled_frame > 0 && r.frames >= r.settled_frame + 2) || --left <= 0) done();
      else requestAnimationFrame(step);
    };
    step();
  }));
}

export async function waitReady(page) {
  await page.waitForFunction(() => window.occ && window.occ.timing && window.occ.timing.firstFrameMs !== null, null, { timeout: 30000 });
}

// Runs `occ <kind> --batch` over JSON Lines; returns one parsed object per line.
export function cliBatch(kind, lines) {
  const r = spawnSync(occBin, [kind, "--batch"], { input: lines.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error && r.error.code !== "EPIPE") throw r.error;   // EPIPE: the CLI refused the subcommand unread
  return r.stdout.split("\n").filter((l) => l.length).map((l) => JSON.parse(l));
}

// --- PNG (8-bit RGB/RGBA, non-interlaced: what Chromium's screenshots are) ---------------------------
export function decodePng(buf) {
  let pos = 8, width = 0, height = 0, colorType = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("ascii", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error("unsupported PNG (bit depth or interlace)");
      colorType = data[9];
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (!bpp) throw new Error("unsupported PNG colour type " + colorType);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp, out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0, b = y ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y ? out[(y - 1) * stride + x - bpp] : 0;
      let v = src[x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      out[y * stride + x] = v & 255;
    }
  }
  return { width, height, bpp, pixels: out };
}

// Distinct colours and the share of pixels that differ from the most common one (the background).
export function pixelStats(png) {
  const counts = new Map();
  for (let i = 0; i < png.pixels.length; i += png.bpp) {
    const key = (png.pixels[i] << 16) | (png.pixels[i + 1] << 8) | png.pixels[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const total = png.width * png.height;
  const top = Math.max(...counts.values());
  return { colors: counts.size, nonBackground: (total - top) / total };
}

// Small seeded PRNG so a failing configuration can be reproduced (OCC_SEED).
export function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (a) => a[Math.floor(next() * a.length)], chance: (p) => next() < p };
}
