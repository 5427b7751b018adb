#!/usr/bin/env python3
"""fatbin_archs.py — which GPU code an executable carries, read from its .nv_fatbin section.

    fatbin_archs.py BINARY [--require-sass 80,86,90a,...] [--require-ptx 120]

Prints one line per (kind, architecture) with the number of entries, e.g. "sass sm_90: 4" or
"sass sm_90a: 1", and exits 1 when a required SASS or PTX architecture is missing (2 when the section
cannot be read at all). "90" asks for plain sm_90 and "90a" for the architecture-specific sm_90a
("100f": family-specific); one never stands in for the other.

Layout, as nvcc 13 writes it (read from its own output on this project; cuobjdump, which would list
the same, is not part of the toolkit installed here): the section is a sequence of containers, each a
16-byte header (u32 magic 0xBA55ED50, u16 version, u16 header size, u64 payload size) followed by
entries; each entry starts with u16 kind (1 = PTX, 2 = ELF/SASS), u16 version, u32 header size,
u64 payload size, and holds the architecture number (80, 90, 120, ...) as the u32 at byte 28 and
flags as the u64 at byte 0x28: 0x100000 architecture-specific ("sm_90a"), 0x200000 family-specific
("sm_100f") (the same layout lib/io/src/artefacts/fatbin_read.cpp reads for `occ kernels`).
"""
import struct
import subprocess
import sys
import tempfile

MAGIC = 0xBA55ED50
FLAG_ARCH_SPECIFIC = 0x100000
FLAG_FAMILY = 0x200000


def section_bytes(binary):
    with tempfile.NamedTemporaryFile() as tmp:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", binary, tmp.name], check=True)
        with open(tmp.name, "rb") as f:
            return f.read()


def entries(data):
    out = []
    off = 0
    while off + 16 <= len(data):
        magic, _version, hsz, size = struct.unpack_from("<IHHQ", data, off)
        if magic != MAGIC:
            off += 8  # containers are 8-byte aligned
            continue
        e, end = off + hsz, off + hsz + size
        while e + 32 <= end:
            kind, _ver, ehsz, psize = struct.unpack_from("<HHIQ", data, e)
            if ehsz < 32 or e + ehsz > end:
                break
            arch = struct.unpack_from("<I", data, e + 28)[0]
            flags = struct.unpack_from("<Q", data, e + 0x28)[0] if ehsz >= 0x30 else 0
            suffix = "a" if flags & FLAG_ARCH_SPECIFIC else "f" if flags & FLAG_FAMILY else ""
            out.append(({1: "ptx", 2: "sass"}.get(kind, "kind%d" % kind), "%d%s" % (arch, suffix)))
            e += ehsz + psize
        off = end
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    binary = argv[1]
    need = {"sass": set(), "ptx": set()}
    i = 2
    while i < len(argv):
        if argv[i] in ("--require-sass", "--require-ptx") and i + 1 < len(argv):
            need["sass" if argv[i] == "--require-sass" else "ptx"] |= {a.strip() for a in argv[i + 1].split(",") if a.strip()}
            i += 2
        else:
            print("unknown argument " + argv[i])
            return 2
    try:
        found = entries(section_bytes(binary))
    except (OSError, subprocess.CalledProcessError) as e:
        print("cannot read .nv_fatbin of %s: %s" % (binary, e))
        return 2
    if not found:
        print("no fatbin entries found in %s" % binary)
        return 2
    counts = {}
    for k in found:
        counts[k] = counts.get(k, 0) + 1
    def order(key):
        kind, arch = key
        digits = arch.rstrip("af")
        return (kind, int(digits) if digits.isdigit() else 0, arch)

    for (kind, arch), n in sorted(counts.items(), key=lambda kv: order(kv[0])):
        print("%s %s_%s: %d" % (kind, "sm" if kind == "sass" else "compute", arch, n))
    missing = ["sass sm_%s" % a for a in sorted(need["sass"]) if ("sass", a) not in counts]
    missing += ["ptx compute_%s" % a for a in sorted(need["ptx"]) if ("ptx", a) not in counts]
    if missing:
        print("MISSING: " + ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
