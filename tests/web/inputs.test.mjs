// inputs.test.mjs — docs/INPUTS.md through the JS API: every table row's bad input, given
// to window.occ.<kind>() as a JSON string, must return exactly the row's error message, the same
// one tests/cli/test_inputs.py checks through the CLI and --batch.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { distDir, root, useBrowser } from "./harness.mjs";

for (const f of ["index.html", "occ.js", "occ.wasm"])
  if (!existsSync(`${distDir}/${f}`)) throw new Error(`${distDir}/${f} is missing: build the page first (make web)`);

// [{kind, field, req, err}] from the tables (same rules as tests/cli/test_inputs.py).
function docRows() {
  const rows = [];
  let kind = null;
  const span = (c) => {
    c = c.trim();
    const m = c.match(/^`` (.*) ``$/) || c.match(/^`([^`]*)`$/);
    return m ? m[1] : null;
  };
  for (const line of readFileSync(path.join(root, "docs/INPUTS.md"), "utf8").split("\n")) {
    const k = line.trim().match(/^<!-- kind: (\w+) -->$/);
    if (k) { kind = k[1]; continue; }
    if (!line.startsWith("| ") || !kind) continue;
    const cells = line.trim().replace(/^\|/, "").replace(/\|$/, "").split(" | ");
    if (cells.length !== 7 || cells[0].trim() === "field") continue;
    const req = span(cells[5]), err = span(cells[6]);
    if (req !== null && err !== null) rows.push({ kind, field: cells[0].trim(), req, err });
  }
  return rows;
}

let server, browser;
useBrowser((s, b) => { server = s; browser = b; });

test("every docs/INPUTS.md row gets its exact error from window.occ", async (t) => {
  const rows = docRows();
  assert.ok(rows.length > 100, `${rows.length} rows parsed`);
  // Only the API is needed, not a drawn frame: wait for occ.ready.
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => !!(window.occ && window.occ.ready), null, { timeout: 120000 });
    await page.evaluate(() => occ.ready);
    const answers = await page.evaluate((rs) => rs.map((r) => {
      if (typeof occ[r.kind] !== "function") return { skipped: true };
      const a = occ[r.kind](r.req);
      return { error: a && typeof a.error === "string" ? a.error : null };
    }), rows);
    let checked = 0;
    const skipped = new Set();
    rows.forEach((r, i) => {
      if (answers[i].skipped) { skipped.add(r.kind); return; }
      assert.equal(answers[i].error, r.err, `${r.kind} ${r.field}: ${r.req}`);
      ++checked;
    });
    t.diagnostic(`${checked} rows checked; kinds without a JS function: ${[...skipped].join(", ") || "none"}`);
    for (const k of ["occupancy", "coalesce", "banks", "roofline"]) assert.ok(!skipped.has(k), `occ.${k} exists`);
    assert.deepEqual(errors, [], "no page errors");
  } finally {
    await context.close();
  }
});
