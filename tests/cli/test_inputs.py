#!/usr/bin/env python3
"""docs/INPUTS.md is the contract: every table row's bad input must get exactly its error message,
through `occ <kind> --batch` (all rows) and through the CLI flags (rows whose request is a single
scalar field with a matching flag). Issue 7."""
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
        checked = 0
        for kind, field, req, err, typ in self.rows:
            if kind not in ("occupancy", "advise") or kind not in self.cmds:
                continue
            if typ.startswith("size") and "\"" not in req.split(":", 1)[1]:
                continue   # a flag's text is a size string: a number there reads as text, with that message
            r = json.loads(req)
            if not isinstance(r, dict) or len(r) != 1:
                continue
            (key, value), = r.items()
            if key in ("device", "optin"):
                continue   # --device takes a file or inline JSON; --optin is a switch
            if isinstance(value, (bool, list, dict)) or value is None:
                continue
            flag = "--" + key.replace("_", "-")
            # Flags take text: a JSON number and its text give the same answer; strings as they are.
            text = value if isinstance(value, str) else json.dumps(value)
            if isinstance(value, float):
                continue   # 1e+300 as text is a size string with another message
            p = subprocess.run([OCC, kind, f"{flag}={text}", "--json"], capture_output=True, text=True, timeout=60)
            if "was not expected" in p.stderr or "not expected" in p.stderr:
                continue   # no such flag on this subcommand
            with self.subTest(kind=kind, flag=flag):
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(error_of(json.loads(p.stdout)), err, f"{flag}={text}")
                # And the human form prints the same message on stderr.
                h = subprocess.run([OCC, kind, f"{flag}={text}"], capture_output=True, text=True, timeout=60)
                self.assertEqual(h.returncode, 2)
                self.assertIn("error: " + err, h.stderr)
                checked += 1
        if "occupancy" in self.cmds:
            self.assertGreater(checked, 10)


if __name__ == "__main__":
    unittest.main()
