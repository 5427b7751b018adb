#!/usr/bin/env python3
"""The front door stays true: docs/README.md lists every document under docs/ once (and links no
missing one), and the counts README.md states come from the catalogue (`occ gpus --json`)."""
import json
import os
import re
import unittest

from occ_cli import run

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def read(*parts):
    with open(os.path.join(SRC, *parts), encoding="utf8") as f:
        return f.read()


class DocsIndex(unittest.TestCase):
    def test_every_document_is_listed_once(self):
        index = read("docs", "README.md")
        linked = re.findall(r"\]\(([A-Z_]+\.md)\)", index)
        on_disk = sorted(f for f in os.listdir(os.path.join(SRC, "docs")) if f.endswith(".md") and f != "README.md")
        self.assertEqual(sorted(linked), on_disk)
        self.assertIn("(docs/README.md)", read("README.md"))

    def test_readme_counts_are_the_catalogues(self):
        rc, out, err = run("gpus", "--json")
        self.assertEqual(rc, 0, err)
        gpus = json.loads(out)
        readme = read("README.md")
        stated = re.findall(r"(\d+) named GPUs", readme)
        self.assertEqual(stated, [str(len(gpus["gpus"]))])

    def test_first_screen_says_how_to_get_the_command(self):
        first = "\n".join(read("README.md").splitlines()[:45])
        for words in ("make run", "make test", "build/native/bin", "occ check", "occ ncu"):
            self.assertIn(words, first)


class SourceComments(unittest.TestCase):
    """Code cites the public source of a fact, never this project's own issue numbers (history lives
    in git; the number says nothing to a reader). Another project's numbered issue, named with the
    project on the same line, stays."""

    OTHER = re.compile(r"(CUTLASS|llvm-project|rocm-libraries|GCC|LLVM|GitHub|triton)\s+issue", re.I)

    def test_no_issue_numbers_in_code(self):
        found = []
        for top in ("lib", "native", "python", "web", "tests", "bench", "cuda_validation", "scripts"):
            for root, dirs, files in os.walk(os.path.join(SRC, top)):
                dirs[:] = [d for d in dirs if d not in ("fixtures", "node_modules", "regress")]
                for name in files:
                    if not name.endswith((".cpp", ".hpp", ".h", ".cu", ".py", ".mjs", ".js", ".sh", ".html", ".txt")):
                        continue
                    path = os.path.join(root, name)
                    with open(path, encoding="utf8", errors="replace") as f:
                        for n, line in enumerate(f, 1):
                            for m in re.finditer(r"\b[Ii]ssues? #?\d+", line):
                                if not self.OTHER.search(line[: m.end()]):
                                    found.append(f"{os.path.relpath(path, SRC)}:{n}: {line.strip()[:100]}")
        self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()
