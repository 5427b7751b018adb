// cases.cpp — the deterministic case tables (memory patterns and occupancy launch configurations).
#include "occ/validation/cases.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace occ::validation {
namespace {

constexpr std::array<int, 5> kSizes{4, 8, 16, 1, 2};
constexpr std::uint64_t kWarpMask = 0xFFFFFFFFull;

std::string hex_mask(std::uint64_t m) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(m));
    return buf;
}

struct Builder {
    std::vector<MemCase>& out;
    Kind kind;
    bool quick;

    // Table mode, one warp: offset(lane) in bytes.
    template <class F>
    void table(bool in_quick, const std::string& family, const std::string& desc, int size, bool store, F offset,
               std::uint64_t mask = kWarpMask) {
        if (quick && !in_quick) return;
        MemCase c;
        c.kind = kind;
        c.store = store;
        c.elem_size = size;
        c.mask = mask;
        for (int lane = 0; lane < 32; ++lane) c.offsets.push_back(offset(lane));
        c.id = std::string(kind == Kind::coalescing ? "gmem/" : "smem/") + (store ? "st" : "ld") + std::to_string(size) + "/" + family;
        c.description = desc;
        out.push_back(std::move(c));
    }

    // 2-D mode: block bx × by, element (x, y) at base + y * pitch + x * size.
    void two_d(bool in_quick, int size, bool store, int bx, int by, std::int64_t pitch, std::int64_t base = 0) {
        if (quick && !in_quick) return;
        MemCase c;
        c.kind = kind;
        c.store = store;
        c.elem_size = size;
        c.block_x = bx;
        c.block_y = by;
        c.two_d = true;
        c.base = base;
        c.pitch = pitch;
        c.mask = bx * by >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (bx * by)) - 1);
        for (int y = 0; y < by; ++y)
            for (int x = 0; x < bx; ++x) c.offsets.push_back(base + y * pitch + std::int64_t{x} * size);
        c.id = std::string(kind == Kind::coalescing ? "gmem/" : "smem/") + (store ? "st" : "ld") + std::to_string(size) + "/2d_" +
               std::to_string(bx) + "x" + std::to_string(by) + "_p" + std::to_string(pitch) + (base ? "_b" + std::to_string(base) : "");
        c.description = "2-D block " + std::to_string(bx) + "x" + std::to_string(by) + ", row pitch " + std::to_string(pitch) +
                        " B (lanes x-fastest)";
        out.push_back(std::move(c));
    }
};

}  // namespace

json MemCase::inputs() const {
    json j{{"space", kind == Kind::coalescing ? "global" : "shared"},
           {"op", store ? "st" : "ld"},
           {"elem_size", elem_size},
           {"block", {block_x, block_y}},
           {"mask", "0x" + hex_mask(mask)}};
    if (two_d) {
        j["mode"] = "2d";
        j["base"] = base;
        j["pitch"] = pitch;
    } else {
        j["mode"] = "table";
        j["offsets"] = offsets;
    }
    return j;
}

std::vector<MemCase> coalescing_cases(bool quick) {
    std::vector<MemCase> v;
    for (bool store : {false, true}) {
        Builder b{v, Kind::coalescing, quick};
        for (int s : kSizes) {
            const bool q = !store || s == 4 || s == 16;  // quick: every load, stores of 4 and 16 bytes
            b.table(q, "contiguous", "consecutive elements", s, store, [s](int l) { return std::int64_t{l} * s; });
            b.table(q, "shift1", "consecutive, base shifted by one element", s, store, [s](int l) { return std::int64_t{l + 1} * s; });
            b.table(!store, "shift3", "consecutive, base shifted by three elements", s, store,
                    [s](int l) { return std::int64_t{l + 3} * s; });
            b.table(q, "shift32B", "consecutive, base shifted by 32 bytes", s, store, [s](int l) { return 32 + std::int64_t{l} * s; });
            for (int stride : {2, 3, 4, 8, 32, 33, 1024}) {
                const bool qs = q && (stride == 2 || stride == 4 || stride == 32 || stride == 33 || (!store && stride == 1024));
                b.table(qs, "stride" + std::to_string(stride), "stride " + std::to_string(stride) + " elements", s, store,
                        [s, stride](int l) { return std::int64_t{l} * stride * s; });
            }
            b.table(q, "broadcast", "every lane reads the same element", s, store, [](int) { return std::int64_t{64}; });
            b.table(!store, "reversed", "consecutive, lanes reversed", s, store, [s](int l) { return std::int64_t{31 - l} * s; });
            b.table(!store, "permuted", "consecutive elements, lanes permuted (7*lane mod 32)", s, store,
                    [s](int l) { return std::int64_t{(l * 7) % 32} * s; });
            b.table(!store, "pairs", "lane pairs share an element", s, store, [s](int l) { return std::int64_t{l / 2} * s; });
            b.table(!store, "gather", "pseudo-random elements in a 4 KiB window", s, store, [s](int l) {
                std::uint32_t x = 2654435761u * static_cast<std::uint32_t>(l + 1);
                return std::int64_t{(x >> 7) % (4096 / s)} * s;
            });
            for (std::uint64_t m : {0x55555555ull, 0x0000FFFFull, 0xFFFF0000ull, 0x00000001ull, 0x80000001ull, 0x0ull}) {
                const bool qm = q && (m == 0x55555555ull || m == 0x1ull || m == 0x0ull);
                b.table(
                    qm, "mask" + hex_mask(m), "consecutive, active mask 0x" + hex_mask(m), s, store,
                    [s](int l) { return std::int64_t{l} * s; }, m);
            }
            b.two_d(q, s, store, 8, 4, 8 * s);
            b.two_d(q, s, store, 8, 4, 1024);
            b.two_d(!store, s, store, 4, 8, 4096);
            b.two_d(!store, s, store, 16, 2, 16 * s + 32, 32);
            b.two_d(q, s, store, 16, 4, 16 * s);
            b.two_d(!store, s, store, 16, 4, 512);
            b.two_d(!store, s, store, 32, 2, 33 * s);
        }
    }
    return v;
}

std::vector<MemCase> bank_cases(bool /*quick*/) {
    std::vector<MemCase> v;
    for (bool store : {false, true}) {
        // Bank cases are cheap to profile: quick runs take all of them (at least 100).
        Builder b{v, Kind::banks, false};
        const bool q = true;
        // 4-byte words: the classic patterns.
        for (int stride : {1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 64}) {
            const bool qs = !store || stride == 1 || stride == 2 || stride == 32 || stride == 33;
            b.table(qs, "stride" + std::to_string(stride), "stride " + std::to_string(stride) + " words", 4, store,
                    [stride](int l) { return std::int64_t{l} * stride * 4; });
        }
        b.table(q, "broadcast", "every lane reads the same word", 4, store, [](int) { return std::int64_t{128}; });
        b.table(q, "two_words_one_bank", "even lanes word 0, odd lanes word 32 (2-way)", 4, store,
                [](int l) { return std::int64_t{(l % 2) * 32 * 4}; });
        b.table(!store, "half_broadcast", "lanes 0-15 one word, 16-31 consecutive", 4, store,
                [](int l) { return std::int64_t{l < 16 ? 0 : l * 4}; });
        b.table(q, "tile_column", "column of a 32x32 float tile (32-way)", 4, store,
                [](int l) { return std::int64_t{l} * 32 * 4 + 5 * 4; });
        b.table(q, "tile_column_padded", "column of a 32x33 padded tile", 4, store, [](int l) { return std::int64_t{l} * 33 * 4 + 5 * 4; });
        b.table(q, "tile_column_xor", "column of a 32x32 tile, XOR swizzle col^row", 4, store,
                [](int l) { return (std::int64_t{l} * 32 + (5 ^ l)) * 4; });
        b.table(!store, "permuted", "consecutive words, lanes permuted", 4, store, [](int l) { return std::int64_t{(l * 13) % 32} * 4; });
        for (std::uint64_t m : {0x55555555ull, 0x0000FFFFull, 0x00000001ull, 0x0ull})
            b.table(
                !store || m == 0x55555555ull, "stride32_mask" + hex_mask(m), "stride 32 words, active mask 0x" + hex_mask(m), 4, store,
                [](int l) { return std::int64_t{l} * 32 * 4; }, m);
        b.two_d(q, 4, store, 8, 4, 32 * 4);
        b.two_d(q, 4, store, 8, 4, 33 * 4);
        b.two_d(!store, 4, store, 4, 8, 128 * 4);
        b.two_d(!store, 4, store, 16, 4, 16 * 4);
        b.two_d(!store, 4, store, 32, 2, 33 * 4);
        // 8- and 16-byte vectors: phases of 16 and 8 lanes.
        for (int stride : {1, 2, 3, 4, 8, 16, 17}) {
            const bool qs = !store || stride == 1 || stride == 2 || stride == 16;
            b.table(qs, "stride" + std::to_string(stride), "stride " + std::to_string(stride) + " elements", 8, store,
                    [stride](int l) { return std::int64_t{l} * stride * 8; });
        }
        b.table(q, "broadcast", "every lane reads the same element", 8, store, [](int) { return std::int64_t{64}; });
        // The paired-load merge (banks.cpp, ArchRules::smem_paired_load_merge): lanes t and t^1, t and t^2,
        // and quads on one element take 1 wavefront loaded, 2 stored.
        b.table(q, "pairs_xor1", "lanes t and t^1 read the same element", 8, store, [](int l) { return std::int64_t{l / 2} * 8; });
        b.table(!store, "pairs_xor2", "lanes t and t^2 read the same element", 8, store,
                [](int l) { return std::int64_t{l / 4 * 2 + l % 2} * 8; });
        b.table(!store, "quads", "the four lanes of a quad read the same element", 8, store, [](int l) { return std::int64_t{l / 4} * 8; });
        b.table(!store, "tile_column_xor", "64-bit tile column, XOR swizzle", 8, store,
                [](int l) { return (std::int64_t{l} * 16 + ((3 ^ l) % 16)) * 8; });
        b.two_d(!store, 8, store, 8, 4, 16 * 8);
        for (int stride : {1, 2, 3, 4, 8, 9}) {
            const bool qs = !store || stride == 1 || stride == 2 || stride == 8;
            b.table(qs, "stride" + std::to_string(stride), "stride " + std::to_string(stride) + " elements", 16, store,
                    [stride](int l) { return std::int64_t{l} * stride * 16; });
        }
        b.table(q, "broadcast", "every lane reads the same element", 16, store, [](int) { return std::int64_t{64}; });
        b.table(q, "pairs_xor1", "lanes t and t^1 read the same element", 16, store, [](int l) { return std::int64_t{l / 2} * 16; });
        b.table(!store, "pairs_xor2", "lanes t and t^2 read the same element", 16, store,
                [](int l) { return std::int64_t{l / 4 * 2 + l % 2} * 16; });
        b.table(!store, "quads", "the four lanes of a quad read the same element", 16, store,
                [](int l) { return std::int64_t{l / 4} * 16; });
        // NVIDIA forum 77228: byte offset tid % 4 * 16 is no pair (T0 == T4): 4 requests.
        b.table(!store, "quad_period4", "lane t reads element t % 4", 16, store, [](int l) { return std::int64_t{l % 4} * 16; });
        b.table(
            !store, "mask55555555", "consecutive, every other lane", 16, store, [](int l) { return std::int64_t{l} * 16; }, 0x55555555ull);
        // Bytes and halves: several lanes share a word (broadcast within a word).
        for (int s : {1, 2}) {
            for (int stride : {1, 2, 4, 64, 128}) {
                const bool qs = !store || stride == 1 || stride == 128;
                b.table(qs, "stride" + std::to_string(stride), "stride " + std::to_string(stride) + " elements", s, store,
                        [s, stride](int l) { return std::int64_t{l} * stride * s; });
            }
            b.table(!store, "broadcast", "every lane reads the same element", s, store, [](int) { return std::int64_t{64}; });
        }
    }
    return v;
}

std::string validate_case(const MemCase& c) {
    if (c.elem_size != 1 && c.elem_size != 2 && c.elem_size != 4 && c.elem_size != 8 && c.elem_size != 16)
        return c.id + ": element size must be 1, 2, 4, 8 or 16";
    if (c.block_x < 1 || c.block_y < 1 || c.threads() > kMaxMemThreads) return c.id + ": block must have 1..64 threads";
    if (static_cast<int>(c.offsets.size()) != c.threads()) return c.id + ": one offset per thread expected";
    const std::int64_t limit = c.kind == Kind::coalescing ? kGlobalBufferBytes : kSharedBufferBytes;
    for (int t = 0; t < c.threads(); ++t) {
        const std::int64_t o = c.offsets[t];
        if (o < 0 || o + c.elem_size > limit) return c.id + ": offset out of the buffer";
        if (o % c.elem_size != 0) return c.id + ": offset not naturally aligned";
        if (c.two_d && o != c.base + (t / c.block_x) * c.pitch + std::int64_t{t % c.block_x} * c.elem_size)
            return c.id + ": 2-D offsets disagree with base/pitch";
    }
    if (!c.two_d && c.threads() != 32) return c.id + ": table mode runs exactly one warp";
    return {};
}

int expected_sass_width(int elem_size) { return elem_size; }

// --- Occupancy configurations -----------------------------------------------------------------------
std::vector<OccConfig> occupancy_configs(const OccKernel& k, int kernel_index, bool quick, std::int64_t optin_max) {
    static constexpr int kBlocks[] = {32,  33,  64,  96,  100, 128, 160, 192, 224, 256, 257, 288,  320,  384,
                                      448, 480, 512, 513, 576, 640, 704, 768, 800, 896, 960, 1000, 1023, 1024};
    static constexpr std::int64_t kSmall[] = {0, 256, 1000, 2048, 4096, 6000, 8192, 12288, 16384, 24576, 32768, 40960, 45000};
    static constexpr std::int64_t kOptin[] = {50000, 65536, 81920, 100000, 120000, 131072, 163840, 180000, 200000, 232448};
    static constexpr int kCarve[] = {-1, 0, 8, 10, 25, 33, 50, 66, 75, 90, 100};
    constexpr int nb = static_cast<int>(std::size(kBlocks));
    constexpr std::int64_t k48 = 48 * 1024;

    std::vector<int> fits;
    for (int b : kBlocks)
        if (b <= k.max_threads) fits.push_back(b);
    if (fits.empty()) fits.push_back(std::min(32, k.max_threads));

    const int n = quick ? 12 : 64;
    std::vector<OccConfig> out;
    for (int j = 0; j < n; ++j) {
        OccConfig c;
        const int pick = (j * 7 + kernel_index * 3) % nb;
        c.threads = fits[static_cast<std::size_t>(pick) % fits.size()];
        c.carveout = kCarve[(j * 5 + kernel_index) % std::size(kCarve)];
        const int dyn_kind = (j + kernel_index) % 4;
        if (dyn_kind == 3 && optin_max > k48) {
            // Opt-in above 48 KB: the first pick that fits with the static part.
            const std::int64_t room = optin_max - k.static_smem;
            std::int64_t d = kOptin[(j / 4 + kernel_index) % std::size(kOptin)];
            if (d > room) d = room;
            if (d + k.static_smem > k48) {
                c.dynamic_smem = d;
                c.optin = true;
            }
        } else if (dyn_kind != 0) {
            std::int64_t d = kSmall[(j * 3 + kernel_index) % std::size(kSmall)];
            if (d + k.static_smem > k48) d = std::max<std::int64_t>(0, k48 - k.static_smem);
            c.dynamic_smem = d;
        }
        out.push_back(c);
    }
    // Launches that must fail: one block too big for the kernel, and (full runs) too much shared memory.
    if (k.max_threads < 1024) {
        OccConfig c;
        c.threads = std::min(1024, k.max_threads + 32);
        out.push_back(c);
    }
    if (!quick && optin_max > k48) {
        OccConfig c;
        c.threads = 128;
        c.dynamic_smem = optin_max - k.static_smem + 1024;
        c.optin = false;
        out.push_back(c);
    }
    return out;
}

}  // namespace occ::validation
