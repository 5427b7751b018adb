// test_lz4.cpp — occ::io::lz4_block_decode (lib/io/src/artefacts/lz4_block.cpp, the web page's LZ4 decoder)
// against liblz4 (Debian's liblz4-dev): every block liblz4 writes decodes to the bytes it was made
// from, the -compress-mode=speed fixture's entries decode as LZ4_decompress_safe decodes them, and
// damaged blocks that both decode give the same bytes. Without liblz4 only the hand-made
// blocks run. Block format: https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "occ/io/binary.hpp"

#if OCC_HAVE_LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif

namespace {

using Bytes = std::vector<unsigned char>;

// lz4_block_decode into a buffer of `size` bytes: the bytes, or nothing (-1).
std::optional<Bytes> decode(const Bytes& block, std::size_t size) {
    Bytes out(size);
    const long long n = occ::io::lz4_block_decode(block, out);
    if (n < 0) return std::nullopt;
    REQUIRE(static_cast<std::size_t>(n) <= size);
    out.resize(static_cast<std::size_t>(n));
    return out;
}

Bytes text(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace

TEST_CASE("lz4: hand-made blocks, worked from the block format") {
    // One sequence of literals only: token 0x50 (5 literals, no match), "hello".
    CHECK(decode({0x50, 'h', 'e', 'l', 'l', 'o'}, 5) == text("hello"));
    // "a", then a match at offset 1 of 4 + 2 bytes (overlapping: it repeats the "a"), then "b".
    CHECK(decode({0x12, 'a', 0x01, 0x00, 0x10, 'b'}, 8) == text("aaaaaaab"));
    // A literal length of 15 + 3 (continuation byte 3) = 18.
    Bytes b{0xF0, 3};
    for (char c : std::string("abcdefghijklmnopqr")) b.push_back(static_cast<unsigned char>(c));
    CHECK(decode(b, 18) == text("abcdefghijklmnopqr"));
    // A match length of 15 + 255 + 1 + 4 = 275 (continuation 255, then 1) at offset 2 after "ab":
    // 277 bytes "abab...a", then "z".
    const auto long_match = decode({0x2F, 'a', 'b', 0x02, 0x00, 255, 1, 0x10, 'z'}, 278);
    REQUIRE(long_match);
    CHECK(long_match->size() == 278);
    CHECK((*long_match)[275] == 'b');
    CHECK((*long_match)[276] == 'a');
    CHECK(long_match->back() == 'z');
    // An empty input block is one token of no literals.
    CHECK(decode({0x00}, 0) == Bytes{});
}

TEST_CASE("lz4: malformed blocks are refused, never read or written out of range") {
    CHECK_FALSE(decode({}, 16));                                  // no token
    CHECK_FALSE(decode({0x50, 'h', 'e'}, 16));                    // literals run past the input
    CHECK_FALSE(decode({0x50, 'h', 'e', 'l', 'l', 'o'}, 4));      // more literals than the output holds
    CHECK_FALSE(decode({0x12, 'a', 0x00, 0x00, 0x10, 'b'}, 16));  // offset 0
    CHECK_FALSE(decode({0x12, 'a', 0x02, 0x00, 0x10, 'b'}, 16));  // offset before the start of the output
    CHECK_FALSE(decode({0x12, 'a', 0x01}, 16));                   // offset cut short
    CHECK_FALSE(decode({0x1F, 'a', 0x01, 0x00, 255}, 1000));      // match length cut short
    CHECK_FALSE(decode({0xF0, 255, 255}, 1000));                  // literal length cut short
    CHECK_FALSE(decode({0x12, 'a', 0x01, 0x00}, 16));             // ends on a match: the last sequence must be literals
    CHECK_FALSE(decode({0x1F, 'a', 0x01, 0x00, 200, 0x00}, 64));  // a match longer than the output
}

#if OCC_HAVE_LZ4
namespace {

Bytes compress(const Bytes& in, int level) {
    Bytes out(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(in.size()))));
    const char none = 0;  // LZ4_compress_HC reads its source pointer even for 0 bytes
    const char* src = in.empty() ? &none : reinterpret_cast<const char*>(in.data());
    const int n = level == 0 ? LZ4_compress_default(src, reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                                                    static_cast<int>(out.size()))
                             : LZ4_compress_HC(src, reinterpret_cast<char*>(out.data()), static_cast<int>(in.size()),
                                               static_cast<int>(out.size()), level);
    REQUIRE(n > 0);
    out.resize(static_cast<std::size_t>(n));
    return out;
}

// liblz4's decode of `block` into `size` bytes, or nothing.
std::optional<Bytes> liblz4(const Bytes& block, std::size_t size) {
    Bytes out(size);
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()), reinterpret_cast<char*>(out.data()),
                                      static_cast<int>(block.size()), static_cast<int>(out.size()));
    if (n < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(n));
    return out;
}

Bytes fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/binaries/" + name, std::ios::binary);
    REQUIRE_MESSAGE(f, "missing fixture " << name);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("lz4: decodes what liblz4 compresses (default and HC levels)") {
    std::mt19937 rng(24);
    std::vector<Bytes> inputs{{}, text("x"), fixture("sm_80.cubin"), fixture("kernels.cu")};
    Bytes random(70000), runs, mixed;
    for (auto& c : random) c = static_cast<unsigned char>(rng());
    for (int i = 0; i < 5000; ++i) runs.insert(runs.end(), static_cast<std::size_t>(1 + i % 300), static_cast<unsigned char>(i));
    for (int i = 0; i < 20000; ++i) mixed.push_back(static_cast<unsigned char>(rng() % 4 == 0 ? rng() : i % 7));
    inputs.push_back(random);
    inputs.push_back(runs);
    inputs.push_back(mixed);
    for (const Bytes& in : inputs) {
        for (int level : {0, 3, 12}) {
            CAPTURE(in.size());
            CAPTURE(level);
            const Bytes block = compress(in, level);
            CHECK(decode(block, in.size()) == in);
            if (!in.empty()) CHECK_FALSE(decode(block, in.size() - 1));  // one byte short of room
        }
    }
}

TEST_CASE("lz4: the -compress-mode=speed fatbin's entries decode as liblz4 decodes them") {
    // The entry layout of fatbin_read.cpp: u32 header size at +4, u64 payload size at +8, u32
    // compressed size at +0x10, u64 flags at +0x28 (0x2000: LZ4), u64 decompressed size at +0x38.
    const Bytes fb = fixture("fatbin_speed.fatbin");
    const auto u32 = [&](std::size_t at) {
        return std::uint32_t(fb[at]) | fb[at + 1] << 8 | fb[at + 2] << 16 | std::uint32_t(fb[at + 3]) << 24;
    };
    const auto u64 = [&](std::size_t at) { return u32(at) | std::uint64_t(u32(at + 4)) << 32; };
    REQUIRE(u32(0) == 0xBA55ED50);
    int lz4_entries = 0;
    for (std::size_t e = u32(4) >> 16, end = e + u64(8); e + 64 <= end;) {
        const std::size_t body = e + u32(e + 4), stored = u32(e + 0x10), full = u64(e + 0x38);
        if (u64(e + 0x28) & 0x2000) {
            ++lz4_entries;
            const Bytes block(fb.begin() + static_cast<std::ptrdiff_t>(body), fb.begin() + static_cast<std::ptrdiff_t>(body + stored));
            const auto expected = liblz4(block, full);
            REQUIRE(expected);
            CHECK(expected->size() == full);
            CHECK(decode(block, full) == expected);
        }
        e = body + u64(e + 8);
    }
    CHECK(lz4_entries == 3);  // sm_80, sm_90 and compute_90 PTX (make_corpus.sh: -compress-all)
}

TEST_CASE("lz4: a damaged block never decodes to something liblz4 does not") {
    std::mt19937 rng(7);
    const Bytes in = fixture("sm_80.cubin");
    const Bytes block = compress(in, 0);
    int agreed = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Bytes bad = block;
        if (trial % 3 == 0) bad.resize(rng() % bad.size());
        else
            for (int flips = 1 + trial % 4; flips > 0; --flips) bad[rng() % bad.size()] ^= static_cast<unsigned char>(1 + rng() % 255);
        const auto ours = decode(bad, in.size());
        // Where both decode, the bytes are the same. Each refuses some blocks the other takes:
        // liblz4 (1.9.4) wants the last 5 bytes to be literals, and takes an offset of 0 (it copies
        // the output onto itself) that the block format calls corrupt; this decoder refuses it.
        const auto theirs = liblz4(bad, in.size());
        if (ours && theirs) {
            CHECK(*ours == *theirs);
            ++agreed;
        }
    }
    CHECK(agreed > 100);
}
#endif
