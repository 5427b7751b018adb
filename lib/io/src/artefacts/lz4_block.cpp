// lz4_block.cpp — an LZ4 block decoder, for builds of occ without liblz4 (the web page): fatbinary's
// -compress-mode=speed entries are LZ4 blocks (fatbin_read.cpp). Native builds link liblz4 and use
// LZ4_decompress_safe; tests/unit/test_lz4.cpp holds this decoder to liblz4's compressors there, so
// the two cannot drift.
//
// The format (lz4/lz4 doc/lz4_Block_format.md, https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md):
// a block is a run of sequences. Each starts with a token byte: its high 4 bits are the literal
// length, its low 4 bits the match length minus 4 (minmatch); a nibble of 15 continues in the bytes
// after it, each added, until one is below 255. The literals follow, then the match: a 2-byte
// little-endian offset back into the output (0 is invalid), copied byte by byte so it may overlap
// what it writes. The last sequence holds literals only: the block ends after them.
#include "occ/io/binary.hpp"

#include <cstring>

namespace occ::io {

long long lz4_block_decode(std::span<const unsigned char> src, std::span<unsigned char> dst) {
    const std::size_t n = src.size(), cap = dst.size();
    std::size_t i = 0, o = 0;
    // Adds a length's continuation bytes to `len`; false when the input ends inside it.
    const auto extend = [&](std::size_t& len) {
        for (;;) {
            if (i >= n) return false;
            const unsigned char b = src[i++];
            len += b;
            if (b != 255) return true;
        }
    };
    while (i < n) {
        const unsigned token = src[i++];
        std::size_t literals = token >> 4;
        if (literals == 15 && !extend(literals)) return -1;
        if (literals > n - i || literals > cap - o) return -1;
        if (literals) std::memcpy(dst.data() + o, src.data() + i, literals);
        i += literals;
        o += literals;
        if (i == n) return static_cast<long long>(o);  // the last sequence: literals only
        if (n - i < 2) return -1;
        const std::size_t offset = src[i] | static_cast<std::size_t>(src[i + 1]) << 8;
        i += 2;
        if (offset == 0 || offset > o) return -1;
        std::size_t match = token & 15u;
        if (match == 15 && !extend(match)) return -1;
        match += 4;
        if (match > cap - o) return -1;
        for (const std::size_t end = o + match; o < end; ++o) dst[o] = dst[o - offset];
    }
    return -1;  // empty, or ended on a match: every block ends with literals
}

}  // namespace occ::io
