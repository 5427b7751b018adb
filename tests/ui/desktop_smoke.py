#!/usr/bin/env python3
"""Desktop smoke test: occ-gui under Xvfb writes a screenshot that is not blank, remembers its
scenario in $XDG_CONFIG_HOME/occ/settings.json, and survives a corrupt settings file.

Needs xvfb-run (Debian: xvfb, xauth) and Mesa's software GL (libgl1-mesa-dri). OCC_GUI names the
occ-gui binary."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

GUI = os.environ.get("OCC_GUI", "build/native/bin/occ-gui")


def run_gui(args, env=None, timeout=90):
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24", GUI] + args
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    # occ-gui exits 0, 1 or 2; any other status came from the X server wrapper (seen once: 5, not
    # reproducible in 12 serial runs). Run once more then, and say so, so a real failure still shows.
    if r.returncode not in (0, 1, 2):
        sys.stderr.write(f"desktop_smoke: xvfb-run exited {r.returncode} ({r.stderr.strip()[:300]!r}); running again\n")
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    return r


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_png(path):
    """Returns (width, height, rows of RGB bytes) for the 8-bit RGB PNGs occ-gui writes."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "bad CRC in %s" % kind
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, color = struct.unpack(">IIBB", ihdr[:10])
    assert (depth, color) == (8, 2), "expected 8-bit RGB"
    raw = zlib.decompress(idat)  # also checks the Adler-32
    stride = w * 3 + 1
    assert len(raw) == stride * h
    rows = [raw[y * stride + 1:(y + 1) * stride] for y in range(h)]
    assert all(raw[y * stride] == 0 for y in range(h)), "occ-gui writes filter type 0"
    return w, h, rows


@unittest.skipUnless(shutil.which("xvfb-run"), "xvfb-run is not installed")
class DesktopSmoke(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="occ-gui-test-")
        self.env = dict(os.environ, XDG_CONFIG_HOME=self.tmp, LIBGL_ALWAYS_SOFTWARE="1")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_screenshot_is_not_blank(self):
        out = os.path.join(self.tmp, "shot.png")
        scenario = json.dumps({"gpu": "A100-SXM4-80GB", "threads": 256, "regs": 64})
        r = run_gui(["--screenshot", out, "--frames", "4", "--size", "1280x800", "--scenario", scenario], self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        w, h, rows = read_png(out)
        self.assertEqual((w, h), (1280, 800))
        colours = set()
        for y in range(0, h, 7):
            row = rows[y]
            for x in range(0, w * 3, 3 * 5):
                colours.add(bytes(row[x:x + 3]))
        # A blank or single-colour frame has a handful of colours; the app has hundreds.
        self.assertGreater(len(colours), 100)
        # The top-left and the middle differ (menu bar vs panels): pixels vary across the frame.
        self.assertNotEqual(rows[5][:30], rows[h // 2][w * 3 // 2:w * 3 // 2 + 30])
        # --screenshot neither reads nor writes the settings file.
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "occ", "settings.json")))

    def test_light_theme_screenshot(self):
        out = os.path.join(self.tmp, "light.png")
        r = run_gui(["--screenshot", out, "--size", "1024x700", "--light"], self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        w, h, rows = read_png(out)
        mean = sum(rows[h // 2]) / len(rows[h // 2])
        self.assertGreater(mean, 150, "light theme should be mostly light")

    def test_bad_scenario_argument_fails(self):
        out = os.path.join(self.tmp, "bad.png")
        r = run_gui(["--screenshot", out, "--scenario", '{"gpu": "NoSuchGPU"}'], self.env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("NoSuchGPU", r.stderr)
        r = run_gui(["--bogus"], self.env)
        self.assertEqual(r.returncode, 2)

    def test_settings_persist_and_survive_corruption(self):
        cfg = os.path.join(self.tmp, "occ")
        os.makedirs(cfg)
        path = os.path.join(cfg, "settings.json")
        with open(path, "w") as f:
            f.write('{"window": {"width": 12')  # corrupt
        scenario = json.dumps({"gpu": "H100-SXM5-80GB", "threads": 128, "regs": 40})
        r = run_gui(["--frames", "3", "--size", "900x700", "--scenario", scenario], self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("corrupt", r.stderr)
        saved = load_json(path)
        self.assertEqual(saved["scenario"]["gpu"], "H100-SXM5-80GB")
        self.assertEqual(saved["scenario"]["regs"], 40)
        self.assertEqual(saved["window"]["width"], 900)
        self.assertEqual([n for n in os.listdir(cfg) if n != "settings.json"], [], "temporary file left behind")
        # Next run without --scenario restores it (and writes it back unchanged).
        r = run_gui(["--frames", "2"], self.env)
        self.assertEqual(r.returncode, 0, r.stderr)
        again = load_json(path)
        self.assertEqual(again["scenario"], saved["scenario"])
        self.assertEqual(again["window"]["width"], 900)


if __name__ == "__main__":
    unittest.main(verbosity=2)
