#!/usr/bin/env python3
"""docs/PYTHON.md is true: every ```pycon block runs as one notebook session (doctest: the
outputs shown are what this build prints), the tutorial-formula table is exactly what
tutorial_table.py computes, and the table's numbers are the known answers worked out by hand."""
import doctest
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tutorial_table  # noqa: E402

ROOT = os.environ.get("OCC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
PAGE = os.path.join(ROOT, "docs", "PYTHON.md")


def page():
    with open(PAGE, encoding="utf-8") as f:
        return f.read()


class Docs(unittest.TestCase):
    def test_session(self):
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.skipTest("the session uses NumPy")
        blocks = re.findall(r"```pycon\n(.*?)```", page(), re.S)
        self.assertGreater(len(blocks), 5)
        globs = {"__name__": "docs_python_md"}
        parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        for i, text in enumerate(blocks):
            test = parser.get_doctest(text, globs, f"docs/PYTHON.md pycon block {i + 1}", PAGE, 0)
            runner.run(test, clear_globs=False)
            globs.update(test.globs)   # DocTest works on a copy: carry the session on
        results = runner.summarize(verbose=False)
        self.assertEqual(results.failed, 0, "docs/PYTHON.md: a session output differs (see above)")
        self.assertGreater(results.attempted, 30)

    def test_table_is_computed(self):
        m = re.search(r"<!-- tutorial-table: .*? -->\n(.*?)\n<!-- /tutorial-table -->", page(), re.S)
        self.assertIsNotNone(m, "docs/PYTHON.md: tutorial-table markers missing")
        self.assertEqual(m.group(1).strip(), tutorial_table.table(),
                         "docs/PYTHON.md's table is stale: paste the output of tests/python/tutorial_table.py")

    def test_known_answers(self):
        # (tutorial formula, occ) per case, worked by hand:
        #   A100 4 warps x 42 regs: 65536 // 5376 = 12; 1344 -> 1536 regs/warp, 16384 / 1536 = 10 warps per
        #     sub-partition = 40 warps = 10 blocks
        #   A100 1 warp x 200 regs: 65536 // 6400 = 10; 16384 / 6400 = 2 warps per sub-partition = 8
        #   H100 4 warps x 16 regs: 65536 // 2048 = 32; 64 warps / 4 = 16
        #   A100 1 warp x 32 regs: 65536 // 1024 = 64; 32 block slots
        #   RTX 4090 16 warps x 32 regs: 65536 // 16384 = 4; 48 warps / 16 = 3
        #   A100 32 KiB: 166912 // 32768 = 5; (32 + 1) KiB per block, 164 KiB / 33 KiB = 4
        #   RTX 3090 16 KiB: 101376 // 16384 = 6; (16 + 1) KiB per block, 100 KiB / 17 KiB = 5
        got = [(c["formula"], c["occ"]) for c in tutorial_table.rows()]
        self.assertEqual(got, [(12, 10), (10, 8), (32, 16), (64, 32), (4, 3), (5, 4), (6, 5)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
