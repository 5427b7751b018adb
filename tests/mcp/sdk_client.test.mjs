// `occ mcp` driven by the official MCP TypeScript SDK's client (@modelcontextprotocol/sdk) over its
// stdio transport: it initializes, lists the tools (each inputSchema must compile as JSON Schema;
// the client itself compiles each outputSchema and checks structuredContent against it), calls
// every tool with a request it answers and one it refuses, and holds each answer to what the CLI
// prints for the same request (`occ <kind> --batch`, `--json`), field for field.
// Run: OCC_BIN=build/native/bin/occ node --test tests/mcp/   (CTest: mcp.sdk_client)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
if (!existsSync(path.join(HERE, "node_modules/@modelcontextprotocol/sdk")))
  throw new Error("tests/mcp/node_modules is missing: scripts/bootstrap.sh installs it (cd tests/mcp && npm install)");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const { default: Ajv } = await import("ajv");

const OCC = process.env.OCC_BIN;
if (!OCC || !existsSync(OCC)) throw new Error("OCC_BIN must name the occ executable, got " + OCC);

function occ(args, input) {
  const r = spawnSync(OCC, args, { input, encoding: "utf8", maxBuffer: 256 << 20 });
  if (r.error) throw r.error;
  return r;
}
// The CLI's answer to one --batch line of `kind`.
function batch(kind, request) {
  const r = occ([kind, "--batch"], JSON.stringify(request) + "\n");
  return JSON.parse(r.stdout.split("\n")[0]);
}
function cliJson(...args) {
  const r = occ([...args, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const fixture = (p) => readFileSync(path.join(ROOT, "tests/fixtures", p), "utf8");
const base64 = (p) => readFileSync(path.join(ROOT, "tests/fixtures", p)).toString("base64");
// The fields of `part` as they are in `whole` (answers that hold the other's as a part).
function samePart(part, whole, what) {
  assert.ok(Object.keys(part).length > 0, what + ": nothing to compare");
  for (const [k, v] of Object.entries(part)) assert.deepEqual(whole[k], v, what + ": field " + k);
}

// Per kind: a request occ answers, the CLI's answer to it, and a request it refuses, with the
// words the refusal must hold (the field, and what it allows).
const launch = { gpu: "A100", threads: 256, regs: 64, grid: 1000 };
const CASES = {
  occupancy: {
    ok: { gpu: "A100", threads: 256, regs: 32 },
    cli: (r) => batch("occupancy", r),
    bad: { gpu: "A100", threads: 5000, regs: 32 },
    says: ["threads", "1..1024"],
  },
  advise: {
    ok: { gpu: "H100", threads: 128, regs: 90 },
    cli: (r) => batch("advise", r),
    bad: { gpu: "H100", threads: 128, regs: 300 },
    says: ["regs", "255"],
  },
  // waves and clusters are parts of the advisor's answer on the command line.
  waves: {
    ok: launch,
    check: (sc) => {
      const { device, input, ...waves } = sc;
      samePart(waves, batch("advise", launch).waves, "waves vs occ advise");
      assert.deepEqual(input, batch("occupancy", launch).input);
    },
    bad: { ...launch, grid: -5 },
    says: ["grid"],
  },
  clusters: {
    ok: { gpu: "H100", threads: 128, regs: 64, cluster_size: 2 },
    check: (sc) => {
      const { device, input, ...clusters } = sc;
      samePart(clusters, batch("advise", { gpu: "H100", threads: 128, regs: 64, cluster_size: 2 }).clusters, "clusters vs occ advise");
    },
    bad: { gpu: "H100", threads: 128, cluster_size: 32 },
    says: ["cluster_size", "1..16", "32"],
  },
  ptxas: {
    ok: { log: fixture("binaries/sm_80.log"), gpu: "A100", threads: 256 },
    check: (sc) => {
      const cli = cliJson("occupancy", "--ptxas", path.join(ROOT, "tests/fixtures/binaries/sm_80.log"), "--gpu", "A100", "--threads", "256");
      assert.deepEqual(sc.kernels, cli.kernels);
    },
    bad: { gpu: "A100", threads: 256 },
    says: ["log", "required"],
  },
  kernels: {
    ok: { files: [{ name: "sm_86.cubin", base64: base64("binaries/sm_86.cubin") }], cc: "8.6", threads: 128 },
    cli: (r) => batch("kernels", r),
    bad: { threads: 1 },
    says: ["files", "required"],
  },
  coalesce: {
    ok: { gpu: "H100", pattern: "affine", stride: 2, elem_bytes: 4 },
    cli: (r) => batch("coalesce", r),
    bad: { gpu: "H100", access_bytes: 3 },
    says: ["access_bytes"],
  },
  banks: {
    ok: { gpu: "A100", pattern: "2d", block: [32, 32], order: "column", elem_bytes: 4 },
    cli: (r) => batch("banks", r),
    bad: { gpu: "A100", order: "diagonal" },
    says: ["order", "row, column"],
  },
  memory: {
    ok: { ptx: fixture("ptx/kernels_sm80.ptx"), kernel: "stride2_f32", block: [128], params: { 0: 0 } },
    cli: (r) => batch("memory", r),
    bad: { ptx: fixture("ptx/kernels_sm80.ptx"), kernel: "no_such_kernel" },
    says: ["no_such_kernel"],
  },
  roofline: {
    ok: { gpu: "H100", op: "softmax", rows: 1024, cols: 1024 },
    cli: (r) => batch("roofline", r),
    bad: { gpu: "H100", op: "sorting" },
    says: ["op", "matmul"],
  },
  ncu: {
    ok: { text: fixture("ncu/default_two_kernels.txt") },
    cli: (r) => batch("ncu", r),
    bad: { text: 42 },
    says: ["text"],
  },
  gpus: {
    ok: {},
    check: (sc) => assert.deepEqual(sc, cliJson("gpus")),
    bad: { gpu: "A100" },
    says: ["gpu"],
  },
  roofline_devices: {
    ok: {},
    check: (sc) => assert.deepEqual(sc, cliJson("roofline", "--list")),
    bad: { cols: 3 },
    says: ["cols"],
  },
};

let client;
let tools;

before(async () => {
  client = new Client({ name: "occ-sdk-test", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command: OCC, args: ["mcp"], stderr: "inherit" }));
  tools = (await client.listTools()).tools;
});
after(async () => {
  await client?.close();
});

test("initialize: the server names itself and offers tools", () => {
  const info = client.getServerVersion();
  assert.equal(info.name, "occ");
  assert.match(info.version, /^\d+\.\d+\.\d+$/);
  assert.ok(client.getServerCapabilities().tools);
  assert.match(client.getInstructions(), /occupancy/);
});

test("tools/list: one tool per request kind, each schema valid JSON Schema", () => {
  const names = tools.map((t) => t.name).sort();
  // Every kind has a case here: a new kind fails this test until it gets one.
  assert.deepEqual(names, Object.keys(CASES).sort());
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.equal(t.outputSchema.type, "object", t.name);
    assert.ok(t.description.length > 20, t.name);
    ajv.compile(t.inputSchema);  // throws on an invalid schema
    ajv.compile(t.outputSchema);
    for (const [key, s] of Object.entries(t.inputSchema.properties)) {
      assert.ok(s.description.length > 0, t.name + "." + key);
      if (s.default !== undefined) {
        const v = ajv.compile(s);
        assert.ok(v(s.default), t.name + "." + key + ": its default fails its own schema: " + JSON.stringify(v.errors));
      }
    }
    // The request each case sends is one the schema accepts.
    const v = ajv.compile(t.inputSchema);
    assert.ok(v(CASES[t.name].ok), t.name + ": " + JSON.stringify(v.errors));
  }
  const occupancy = tools.find((t) => t.name === "occupancy").inputSchema.properties;
  assert.equal(occupancy.threads.type, "integer");
  assert.equal(occupancy.threads.default, 256);
  assert.deepEqual(occupancy.cache_config.enum, ["none", "shared", "l1", "equal"]);
});

for (const [name, c] of Object.entries(CASES)) {
  test(`tools/call ${name}: the CLI's answer, and a refusal naming the field`, async () => {
    const r = await client.callTool({ name, arguments: c.ok });
    assert.equal(r.isError, false, JSON.stringify(r.content));
    assert.equal(r.content[0].type, "text");
    assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
    if (c.cli) assert.deepEqual(r.structuredContent, c.cli(c.ok));
    else c.check(r.structuredContent);

    const bad = await client.callTool({ name, arguments: c.bad });
    assert.equal(bad.isError, true, JSON.stringify(bad.structuredContent).slice(0, 300));
    const text = bad.content[0].text;
    for (const word of c.says) assert.ok(text.includes(word), `${name}: "${text}" should name ${word}`);
    assert.equal(bad.structuredContent.error, text);
  });
}

test("protocol errors reach the client as JSON-RPC errors", async () => {
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => e.code === -32602);
  await assert.rejects(client.request({ method: "resources/list" }, (await import("@modelcontextprotocol/sdk/types.js")).ListResourcesResultSchema), (e) => e.code === -32601);
  await client.ping();
});

test("occ mcp by hand: a malformed line is answered and the server goes on", () => {
  const lines = ['{"jsonrpc":"2.0","id":1,"method":"ping"', "[1]", '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}'];
  const r = occ(["mcp"], lines.join("\n") + "\n");
  assert.equal(r.status, 0, r.stderr);
  const replies = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(replies.map((x) => x.error?.code ?? "ok"), [-32700, -32600, "ok"]);
  assert.equal(replies[2].id, 2);
});

test("occ mcp by hand: a line over 4 MiB is refused unread, and a last line without its newline is answered", () => {
  const huge = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + "x".repeat(5 << 20) + '"}}';
  const r = occ(["mcp"], huge + "\n" + '{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}');
  assert.equal(r.status, 0, r.stderr);
  const replies = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(replies.length, 3);
  assert.equal(replies[0].error.code, -32600);
  assert.equal(replies[0].id, null);
  assert.match(replies[0].error.message, new RegExp(`${huge.length} bytes is over the limit of ${4 << 20} bytes`));
  assert.deepEqual(replies.slice(1).map((x) => [x.id, x.result]), [[2, {}], [3, {}]]);
});
