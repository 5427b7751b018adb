#!/usr/bin/env python3
"""docs/INPUTS.md is the contract: every table row's bad input must get exactly its error message,
through `occ <kind> --batch` (all rows) and through the CLI flags (rows whose request is a single
scalar field: every field's flag is "--" + its key)."""
import json
import os
import re
import subprocess
import unittest

OCC = os.environ.get("OCC_BIN", "build/native/bin/occ")
SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(SRC, "docs", "INPUTS.md")


def code_span(cell):
    cell = cell.strip()
    m = re.fullmatch(r"``\s(.*)\s``", cell) or re.fullmatch(r"`([^`]*)`", cell)
    return m.group(1) if m else None


def doc_rows():
    """[(kind, field, request_text, error, type)] from the tables in docs/INPUTS.md."""
    rows, kind = [], None
    with open(DOC, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"<!-- kind: (\w+) -->", line.strip())
            if m:
                kind = m.group(1)
                continue
            if not line.startswith("| ") or kind is None:
                continue
            # Split on " | " between cells (cells hold no '|' of their own).
            cells = [c for c in line.rstrip("\n").strip().strip("|").split(" | ")]
            if len(cells) != 7 or cells[0].strip() == "field":
                continue
            req, err = code_span(cells[5]), code_span(cells[6])
            if req is None or err is None:
                continue   # rows such as "id" have no bad input
            rows.append((kind, cells[0].strip(), req, err, cells[1].strip()))
    return rows


def error_of(answer):
    e = answer.get("error")
    return e if isinstance(e, str) else None


def subcommands():
    p = subprocess.run([OCC, "--help"], capture_output=True, text=True, timeout=60)
    return set(re.findall(r"^\s{2}(\w+)\s", p.stdout, re.M))


class Inputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = doc_rows()
        cls.cmds = subcommands()

    def test_doc_has_rows_for_every_kind(self):
        kinds = {r[0] for r in self.rows}
        for k in ("occupancy", "coalesce", "banks", "roofline"):
            self.assertIn(k, kinds)
        self.assertGreater(len(self.rows), 100)

    def test_every_row_through_batch(self):
        by_kind = {}
        for r in self.rows:
            by_kind.setdefault(r[0], []).append(r)
        checked = 0
        for kind, rows in by_kind.items():
            if kind not in self.cmds:
                print(f"note: `occ {kind}` is not a subcommand of this build; {len(rows)} rows not checked here")
                continue
            data = "".join(r[2] + "\n" for r in rows)
            p = subprocess.run([OCC, kind, "--batch"], input=data.encode(), capture_output=True, timeout=120)
            out = p.stdout.decode("utf-8").splitlines()
            self.assertEqual(len(out), len(rows), f"{kind}: {p.stderr!r}")
            self.assertEqual(p.returncode, 1, kind)
            for (k, field, req, err, _), line in zip(rows, out):
                with self.subTest(kind=k, field=field):
                    self.assertEqual(error_of(json.loads(line)), err, req)
                    checked += 1
        self.assertGreater(checked, 100)

    def test_scalar_rows_through_cli_flags(self):
        """Every flag is its JSON key ("--" + key with '_' -> '-'), on every kind: a one-field row
        gets the same message through the flag as through --batch."""
        checked, by_kind = 0, {}
        # Flags whose text the CLI converts first (lane ranges, address lists, 32,8 blocks, 0.5ms
        # durations, device files), switches, and number fields (a flag's text is quoted in messages).
        converted = {"device", "optin", "swizzle", "non_portable", "active_lanes", "addresses", "block", "gpc_sms", "compare", "measured_ms"}
        for kind, field, req, err, typ in self.rows:
            if kind not in self.cmds:
                continue
            if typ.startswith("size") and "\"" not in req.split(":", 1)[1]:
                continue   # a flag's text is a size string: a number there reads as text, with that message
            r = json.loads(req)
            if not isinstance(r, dict) or len(r) != 1:
                continue
            (key, value), = r.items()
            if key in converted or typ == "number" or field != key or key in ("ops", "id", "log", "batch"):
                continue   # the row of another message than the field's own, or a JSON-only field
            if isinstance(value, (bool, list, dict, float)) or value is None:
                continue   # 1e+300 as text is a size string with another message
            flag = "--" + key.replace("_", "-")
            text = value if isinstance(value, str) else json.dumps(value)
            p = subprocess.run([OCC, kind, f"{flag}={text}", "--json"], capture_output=True, text=True, timeout=60)
            with self.subTest(kind=kind, flag=flag):
                self.assertNotIn("not expected", p.stderr, f"{kind} has no flag {flag}")
                self.assertEqual(p.returncode, 2, p.stderr)
                # A flag's value is text: a message may quote it ("got \"3\"" for the JSON's "got 3").
                quoted = err.replace(f"got {text}", f'got "{text}"')
                got = error_of(json.loads(p.stdout))
                self.assertIn(got, (err, quoted), f"{flag}={text}")
                # And the human form prints the same message on stderr.
                h = subprocess.run([OCC, kind, f"{flag}={text}"], capture_output=True, text=True, timeout=60)
                self.assertEqual(h.returncode, 2)
                self.assertIn("error: " + got, h.stderr)
                checked += 1
                by_kind[kind] = by_kind.get(kind, 0) + 1
        for kind in ("occupancy", "coalesce", "banks", "roofline", "advise"):
            if kind in self.cmds:
                self.assertGreater(by_kind.get(kind, 0), 2, kind)
        self.assertGreater(checked, 40)


if __name__ == "__main__":
    unittest.main()
