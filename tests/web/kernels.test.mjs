// kernels.test.mjs — binaries in the page: occ.kernels(bytes) answers exactly as `occ kernels --json`
// does for the fixtures the page reads whole (stored and LZ4 fatbin entries, cubins, Triton files),
// a Zstandard-compressed entry is a row with the reason; a fatbin, a shared library and
// a zip of a Triton cache dropped on the page list the rows the CLI prints for the scenario's GPU and
// block size, and "Use" loads a kernel into the inputs; a damaged or hostile file leaves the inputs
// as they were and says why.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { deflateRawSync } from "node:zlib";

import { occBin, openPage, root, settle, useBrowser } from "./harness.mjs";

const binDir = path.join(root, "tests/fixtures/binaries");
const tritonDir = path.join(root, "tests/fixtures/triton");
const ZSTD_REASON = "Zstandard entry: read it with the CLI (`occ kernels`)";

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

// `occ kernels ARGS --json` run in `cwd` (so the files are named as the page names them).
function cli(cwd, args) {
  const r = spawnSync(occBin, ["kernels", ...args, "--json"], { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  assert.ok(r.stdout, `occ kernels ${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// A zip archive of `files` ({name, bytes}), the layout of PKWARE's APPNOTE.TXT (local headers, central
// directory, end record); deflated entries when `deflate`, else stored.
function zip(files, deflate) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const parts = [], dir = [];
  let at = 0;
  for (const f of files) {
    const name = Buffer.from(f.name), data = deflate ? deflateRawSync(f.bytes) : Buffer.from(f.bytes), crc = crc32(f.bytes);
    const head = (sig, size) => { const h = Buffer.alloc(size); h.writeUInt32LE(sig, 0); return h; };
    const local = head(0x04034b50, 30);
    local.writeUInt16LE(20, 4); local.writeUInt16LE(deflate ? 8 : 0, 8); local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(f.bytes.length, 22); local.writeUInt16LE(name.length, 26);
    const central = head(0x02014b50, 46);
    central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(deflate ? 8 : 0, 10); central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20); central.writeUInt32LE(f.bytes.length, 24); central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    parts.push(local, name, data);
    dir.push(central, name);
    at += 30 + name.length + data.length;
  }
  const dirBytes = Buffer.concat(dir), end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(files.length, 8); end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dirBytes.length, 12); end.writeUInt32LE(at, 16);
  return Buffer.concat([...parts, dirBytes, end]);
}

// Every file under tests/fixtures/triton/cache, named from tests/fixtures/triton ("cache/<hash>/...").
function tritonFiles() {
  const files = [];
  for (const hash of readdirSync(path.join(tritonDir, "cache")).sort())
    for (const f of readdirSync(path.join(tritonDir, "cache", hash)).sort())
      files.push({ name: `cache/${hash}/${f}`, bytes: readFileSync(path.join(tritonDir, "cache", hash, f)) });
  return files;
}

// Drops files ({name, bytes as an array}) on the canvas as a person does, and waits for the page to take them.
async function drop(page, files) {
  await page.evaluate((fs) => {
    occ.dropped = undefined;
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
    document.querySelector("#canvas").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, bytes: Array.from(f.bytes) })));
  await page.waitForFunction(() => occ.dropped !== undefined, null, { timeout: 10000 });
  await settle(page);
}

// The rows of a kernels answer (a row per kernel build: resources, occupancy or the reason, source).
const rows = (a) => a.kernels;

describe("kernels from binaries", () => {
  test("occ.kernels(bytes) equals `occ kernels --json` for what the page reads whole", async () => {
    const { context, page, errors } = await openPage(browser, server.url);
    try {
      for (const name of ["fatbin_speed.fatbin", "fatbin_none.fatbin", "sm_90a.cubin", "sm_120.cubin", "suffixes.fatbin"]) {
        const bytes = Array.from(readFileSync(path.join(binDir, name)));
        for (const fields of [{}, { gpu: "H100-SXM5-80GB", threads: 128 }]) {
          const args = [name, ...Object.entries(fields).flatMap(([k, v]) => [`--${k}`, String(v)])];
          const web = await page.evaluate(([n, b, f]) => occ.kernels([{ name: n, bytes: new Uint8Array(b) }], f), [name, bytes, fields]);
          assert.deepEqual(web, cli(binDir, args), `${name} ${JSON.stringify(fields)}`);
        }
      }
      // LZ4 entries are read by the page's own decoder (lib/io/src/artefacts/lz4_block.cpp): the speed mode's rows are real.
      const speed = await page.evaluate((b) => occ.kernels(new Uint8Array(b)), Array.from(readFileSync(path.join(binDir, "fatbin_speed.fatbin"))));
      assert.ok(speed.kernels.filter((k) => k.format === "fatbin" && k.registers > 0).length >= 40, "LZ4 cubins read");
      // Triton's two files: the launch from the metadata.
      const dir = path.join(tritonDir, "cache", readdirSync(path.join(tritonDir, "cache")).sort()[0]);
      const stem = readdirSync(dir).find((f) => f.endsWith(".cubin")).replace(/\.cubin$/, "");
      const triton = await page.evaluate((fs) => occ.kernels(fs.map((f) => ({ name: f.name, bytes: new Uint8Array(f.bytes) }))),
        [".cubin", ".json"].map((e) => ({ name: stem + e, bytes: Array.from(readFileSync(path.join(dir, stem + e))) })));
      assert.deepEqual(rows(triton), rows(cli(dir, [stem + ".json"])));
      assert.ok(triton.kernels[0].launch, "the metadata's launch");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("Zstandard-compressed entries: a row per entry with the reason, the other entries as the CLI reads them", async () => {
    const { context, page } = await openPage(browser, server.url);
    try {
      // nvcc's default mode compresses the PTX with Zstandard (fatbin_default); -rdc objects all entries (rdc.o).
      for (const [name, compressed] of [["fatbin_default.fatbin", 1], ["rdc.o", 2]]) {
        const web = await page.evaluate(([n, b]) => occ.kernels([{ name: n, bytes: new Uint8Array(b) }]), [name, Array.from(readFileSync(path.join(binDir, name)))]);
        const native = cli(binDir, [name]);
        const zstd = web.kernels.filter((k) => k.format === "zstd entry");
        assert.equal(zstd.length, compressed, name);
        const entries = new Set(zstd.map((k) => k.source.entry));
        for (const k of zstd) {
          assert.deepEqual([k.name, k.registers, k.smem_static, k.stack_frame, k.occupancy, k.error], ["", null, null, null, null, ZSTD_REASON], name);
          assert.equal(k.arch, k.source.entry.match(/\(([^ )]+)[^(]*$/)[1], "the entry's architecture");
          assert.ok(native.kernels.some((n) => n.source.entry === k.source.entry), `the CLI reads kernels from ${k.source.entry}`);
        }
        assert.deepEqual(web.kernels.filter((k) => k.format !== "zstd entry"), native.kernels.filter((k) => !entries.has(k.source.entry)), name);
      }
    } finally {
      await context.close();
    }
  });

  test("a fatbin, a shared library and a zipped Triton cache dropped on the page: the CLI's rows, and Use", async (t) => {
    const { context, page, errors } = await openPage(browser, server.url + "#gpu=RTX-3090&threads=256&regs=32", { width: 1366, height: 768 });
    try {
      assert.equal(await page.evaluate(() => occ.appKernels()), null, "nothing dropped yet");
      const cases = [
        { what: "fatbin", files: [{ name: "fatbin_none.fatbin", bytes: readFileSync(path.join(binDir, "fatbin_none.fatbin")) }],
          native: () => cli(binDir, ["fatbin_none.fatbin", "--gpu", "RTX-3090", "--threads", "256"]) },
        { what: "shared library", files: [{ name: "libkernels.so", bytes: readFileSync(path.join(binDir, "libkernels.so")) }],
          native: () => cli(binDir, ["libkernels.so", "--gpu", "RTX-3090", "--threads", "256"]) },
        { what: "zip (deflate)", files: [{ name: "cache.zip", bytes: zip(tritonFiles(), true) }], native: () => cli(tritonDir, ["cache", "--gpu", "RTX-3090", "--threads", "256"]) },
        { what: "zip (stored)", files: [{ name: "cache.zip", bytes: zip(tritonFiles(), false) }], native: () => cli(tritonDir, ["cache", "--gpu", "RTX-3090", "--threads", "256"]) },
      ];
      for (const c of cases) {
        await drop(page, c.files);
        const shown = await page.evaluate(() => occ.appKernels());
        assert.ok(shown && shown.kernels, `${c.what}: the app read it (${JSON.stringify(shown).slice(0, 300)})`);
        const native = c.native();
        assert.ok(rows(native).length >= 1, `${c.what}: the CLI lists kernels`);
        assert.deepEqual(rows(shown), rows(native), `${c.what}: the rows`);
        assert.deepEqual(shown.skipped, native.skipped, `${c.what}: the builds skipped`);
        t.diagnostic(`${c.what}: ${rows(shown).length} rows as the CLI prints them`);
        assert.equal(await page.evaluate(() => occ.state().ui.tab), "advisor");
      }
      // Use: the first row of the Triton cache (the last drop) becomes the scenario.
      const shown = await page.evaluate(() => occ.appKernels());
      const before = await page.evaluate(() => occ.state());
      const usable = shown.kernels.filter((r) => r.occupancy !== null);   // a row with a result has a Use button
      const k = usable[0];
      assert.ok(k && k.launch, "a Triton kernel that runs on the GPU");
      const use = (await page.evaluate(() => occ.layout())).texts.filter((x) => x.text === "Use");
      assert.equal(use.length, usable.length, "a Use button per usable row, all on screen");
      const [x, y, w, h] = use[0].rect;
      await page.mouse.click(x + w / 2, y + h / 2);
      await page.waitForFunction((r) => occ.state().regs === r, k.registers, { timeout: 5000 });
      const after = await page.evaluate(() => occ.state());
      assert.equal(after.regs, k.registers);
      assert.equal(after.threads, k.launch.threads, "a Triton kernel's launch comes with it");
      assert.notDeepEqual(after, before, "the inputs changed");
      const layout = await page.evaluate(() => occ.layout());
      assert.deepEqual(layout.clipped, [], "no text cut");
      assert.deepEqual(layout.overlaps, [], "no text over another");
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test("damaged and hostile files: a clear message, the inputs as they were", async () => {
    const { context, page, errors } = await openPage(browser, server.url + "#gpu=A100-SXM4-80GB&threads=256&regs=40");
    try {
      const cubin = readFileSync(path.join(binDir, "sm_80.cubin"));
      const zipped = zip(tritonFiles(), true);
      const bomb = Buffer.from(zipped);
      // Declares 10 bytes for the first entry, which inflates to far more.
      bomb.writeUInt32LE(10, bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
      const cases = [
        { name: "truncated.cubin", bytes: cubin.subarray(0, 300), says: /truncated\.cubin: .*(truncated|past the end|lies)/ },
        { name: "noise.so", bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 255)), says: /not a cubin, fatbin or ELF file/ },
        { name: "cut.zip", bytes: zipped.subarray(0, zipped.length - 40), says: /cut\.zip could not be read: .*zip/ },
        { name: "bomb.zip", bytes: bomb, says: /bomb\.zip could not be read: .*inflates past the 10 bytes/ },
      ];
      const before = await page.evaluate(() => occ.state());
      for (const c of cases) {
        await drop(page, [c]);
        const shown = await page.evaluate(() => occ.appKernels());
        const notice = await page.evaluate(() => occ.lastNotice);
        const said = [notice, ...((shown && shown.files) || []).map((f) => f.error || "")].join("\n");
        assert.match(said, c.says, c.name);
        const now = await page.evaluate(() => occ.state());
        for (const key of ["gpu", "threads", "regs", "smem_static", "smem_dynamic"]) assert.deepEqual(now[key], before[key], `${c.name}: ${key} kept`);
        assert.equal(await page.locator("#fatal").isHidden(), true, `${c.name}: the page runs on`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
