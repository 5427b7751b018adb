// smem_shapes.cpp — shared-memory tiles: swizzles, TMA modes, matrix and bulk accesses (see occ/smem_shapes.hpp).
//
// [SECTION] Swizzles
// [SECTION] TileLayout
// [SECTION] TileAccess
// [SECTION] Analysis
#include "occ/smem_shapes.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace occ {

// [SECTION] Swizzles

namespace {
std::uint64_t bit_mask(int bits) { return (std::uint64_t{1} << bits) - 1; }
int log2_exact(int x) { return std::countr_zero(static_cast<unsigned>(x)); }
}  // namespace

std::int64_t swizzle_apply(const CuteSwizzle& s, std::int64_t offset) {
    if (s.bits == 0) return offset;
    // CUTLASS include/cute/swizzle.hpp, struct Swizzle: yyy_msk = bit_msk << (MBase + max(0, SShift)),
    // apply(offset) = offset ^ shiftr(offset & yyy_msk, SShift) (a negative shift moves left).
    const std::uint64_t o = static_cast<std::uint64_t>(offset);
    const std::uint64_t yyy = bit_mask(s.bits) << (s.base + std::max(0, s.shift));
    const std::uint64_t y = o & yyy;
    const std::uint64_t moved = s.shift >= 0 ? y >> s.shift : y << -s.shift;
    return static_cast<std::int64_t>(o ^ moved);
}

int swizzle_low_bit(const CuteSwizzle& s) { return s.base - std::min(0, s.shift); }  // zzz_msk's lowest bit
int swizzle_high_bit(const CuteSwizzle& s) { return swizzle_low_bit(s) + s.bits; }

std::string check_swizzle(const CuteSwizzle& s) {
    char buf[200];
    if (s.bits < 0 || s.bits > kMaxSwizzleBits || s.base < 0 || s.base > kMaxSwizzleBase || std::abs(s.shift) > kMaxSwizzleShift ||
        std::abs(s.shift) < s.bits) {
        // swizzle.hpp static_asserts: MBase >= 0, BBits >= 0, abs(SShift) >= BBits.
        std::snprintf(buf, sizeof buf, "cute_swizzle: Swizzle<B,M,S> needs B 0..8, M 0..16, |S| >= B and |S| <= 16, got Swizzle<%d,%d,%d>",
                      s.bits, s.base, s.shift);
        return buf;
    }
    return {};
}

bool parse_cute_swizzle(std::string_view text, CuteSwizzle& out) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) s += c;
    for (std::string_view prefix : {"cute::", "Swizzle<", "Sw<"})
        if (s.rfind(prefix, 0) == 0) {
            s.erase(0, prefix.size());
            if (prefix == "cute::" && s.rfind("Swizzle<", 0) != 0) return false;
            if (prefix == "cute::") s.erase(0, 8);
            if (s.empty() || s.back() != '>') return false;
            s.pop_back();
            break;
        }
    int v[3];
    const char* p = s.data();
    const char* end = s.data() + s.size();
    for (int i = 0; i < 3; ++i) {
        auto [q, ec] = std::from_chars(p, end, v[i]);
        if (ec != std::errc() || q == p) return false;
        p = q;
        if (i < 2) {
            if (p == end || *p != ',') return false;
            ++p;
        }
    }
    if (p != end) return false;
    out = CuteSwizzle{v[0], v[1], v[2]};
    return true;
}

std::string cute_swizzle_type(const CuteSwizzle& s) {
    return "cute::Swizzle<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

std::string swizzle_index_expression(const CuteSwizzle& s) {
    if (s.bits == 0) return "i";
    char buf[96];
    // (i & yyy) >> S == (i >> S) & (bit_msk << M) for S >= 0; a negative S moves the bits left.
    const unsigned long long zzz = bit_mask(s.bits) << swizzle_low_bit(s);
    if (s.shift >= 0) std::snprintf(buf, sizeof buf, "i ^ ((i >> %d) & 0x%llx)", s.shift, zzz);
    else std::snprintf(buf, sizeof buf, "i ^ ((i << %d) & 0x%llx)", -s.shift, zzz);
    return buf;
}

namespace {
// CUtensorMapSwizzle (cuda.h), in the enum's order, as occ spells them.
constexpr const char* kTmaNames[kTmaSwizzleModes] = {"none",         "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B",
                                                     "128B_ATOM_64B"};
}  // namespace

const char* tma_swizzle_name(TmaSwizzle t) {
    const auto i = static_cast<std::size_t>(t);
    return i < std::size(kTmaNames) ? kTmaNames[i] : "none";
}

bool parse_tma_swizzle(std::string_view text, TmaSwizzle& out) {
    std::string s;
    for (char c : text) s += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (s.rfind("CU_TENSOR_MAP_SWIZZLE_", 0) == 0) s.erase(0, 22);
    for (int i = 0; i < kTmaSwizzleModes; ++i) {
        std::string n = kTmaNames[i];
        for (char& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (s == n) {
            out = static_cast<TmaSwizzle>(i);
            return true;
        }
    }
    return false;
}

int tma_swizzle_span(TmaSwizzle t) {
    // cuda.h, cuTensorMapEncodeTiled: "CU_TENSOR_MAP_SWIZZLE_128B* require the bounding box inner
    // dimension to be <= 128"; 32B and 64B: <= 32 and <= 64.
    switch (t) {
        case TmaSwizzle::none: return 0;
        case TmaSwizzle::b32: return 32;
        case TmaSwizzle::b64: return 64;
        default: return 128;
    }
}

int tma_swizzle_atom(TmaSwizzle t) {
    // cuda.h, CUtensorMapSwizzle: "Swizzle 16B chunks", "32B chunks", "64B chunks within 128B span";
    // FLIP_8B "additionally swap lower 8B with upper 8B within each 16B for every alternate row".
    switch (t) {
        case TmaSwizzle::b128_atom32: return 32;
        case TmaSwizzle::b128_atom64: return 64;
        case TmaSwizzle::b128_atom32_flip8: return 8;
        default: return 16;
    }
}

CuteSwizzle tma_swizzle_bytes(TmaSwizzle t) {
    switch (t) {
        // CUTLASS copy_traits_sm90_tma_swizzle.hpp, get_tma_swizzle_bits: with M = 4 (16-byte units),
        // B = 1 -> SWIZZLE_32B, 2 -> 64B, 3 -> 128B; get_tma_swizzle_base requires S = 3.
        case TmaSwizzle::b32: return {1, 4, 3};
        case TmaSwizzle::b64: return {2, 4, 3};
        case TmaSwizzle::b128: return {3, 4, 3};
        // get_tma_swizzle_base: M = 5 needs B = 2 and S = 2 -> SWIZZLE_BASE_32B -> CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B
        // (copy_sm90_desc.hpp, to_CUtensorMapSwizzle); mma_sm100_desc.hpp: "128B_BASE32B : Swizzle<2,5,2>".
        // The four 32-byte chunks of a 128-byte row move by the row's index mod 4.
        case TmaSwizzle::b128_atom32:
        case TmaSwizzle::b128_atom32_flip8: return {2, 5, 2};
        // cuda.h: "Swizzle 64B chunks within 128B span": two chunks, so one bit (6) moved by the row's
        // parity (bit 7), the pattern of the other 128B modes (S = 7 - M). CUTLASS's get_tma_swizzle_base
        // maps M = 6 to SWIZZLE_BASE_64B without fixing S; cuda_validation checks this reading.
        case TmaSwizzle::b128_atom64: return {1, 6, 1};
        default: return {};
    }
}

std::int64_t tma_swizzle_apply(TmaSwizzle t, std::int64_t byte_offset) {
    std::int64_t o = swizzle_apply(tma_swizzle_bytes(t), byte_offset);
    // FLIP_8B: on every other 128-byte row (bit 7) the lower and upper 8 bytes of each 16 trade places
    // (bit 3). Neither part reads a bit the other changes, so the order does not matter.
    if (t == TmaSwizzle::b128_atom32_flip8) o ^= ((o >> 7) & 1) << 3;
    return o;
}

int tma_swizzle_repeat(TmaSwizzle t) {
    const CuteSwizzle s = tma_swizzle_bytes(t);
    return s.bits == 0 ? 1 : 1 << (s.base + s.shift + s.bits);  // one past the highest bit read (YYY)
}

CuteSwizzle tma_swizzle_elements(TmaSwizzle t, int elem_bytes) {
    CuteSwizzle s = tma_swizzle_bytes(t);
    // FLIP_8B is not one Swizzle<B,M,S>; none of the others moves less than 16 bytes.
    if (s.bits == 0 || t == TmaSwizzle::b128_atom32_flip8 || elem_bytes < 1 || elem_bytes > 16 ||
        !std::has_single_bit(static_cast<unsigned>(elem_bytes)))
        return {};
    s.base -= log2_exact(elem_bytes);  // byte bit M is element bit M - log2(elem_bytes)
    return s;
}

TmaSwizzle tma_mode_of(const CuteSwizzle& s, int elem_bytes) {
    for (TmaSwizzle t : {TmaSwizzle::b32, TmaSwizzle::b64, TmaSwizzle::b128, TmaSwizzle::b128_atom32, TmaSwizzle::b128_atom64})
        if (tma_swizzle_elements(t, elem_bytes) == s) return t;
    return TmaSwizzle::none;
}

// [SECTION] TileLayout

namespace {
// The largest shared memory a block can have (cc 9.0 / 10.0: 227 KiB, Programming Guide, Table "Technical
// Specifications per Compute Capability").
constexpr std::int64_t kMaxTileBytes = 227 * 1024;
}  // namespace

std::string check_tile_layout(const TileLayout& t) {
    char buf[320];
    if (t.rows < 1 || t.rows > kMaxTileDim || t.cols < 1 || t.cols > kMaxTileDim) {
        std::snprintf(buf, sizeof buf, "tile: rows and columns must each be 1..%d elements, got %dx%d", kMaxTileDim, t.rows, t.cols);
        return buf;
    }
    if (t.elem_bytes == kWideAccessBytes)  // a request's elem_bytes defaults to its access_bytes
        return "elem_bytes: a tile's elements are 1, 2, 4, 8 or 16 bytes, got 32; a 32-byte row access moves several of them: give "
               "elem_bytes (e.g. 4) with access_bytes 32";
    if (!valid_access_bytes(t.elem_bytes)) return "elem_bytes: must be 1, 2, 4, 8 or 16, got " + std::to_string(t.elem_bytes);
    if (t.pad < 0 || t.pad > kMaxTilePad)
        return "pad: must be 0.." + std::to_string(kMaxTilePad) + " elements, got " + std::to_string(t.pad);
    const std::int64_t elems = std::int64_t{t.rows} * t.pitch();
    if (elems * t.elem_bytes > kMaxTileBytes) {
        std::snprintf(buf, sizeof buf, "tile: %dx%d elements of %d bytes (pitch %d) take %lld bytes; a block has at most %lld (227 KiB)",
                      t.rows, t.cols, t.elem_bytes, t.pitch(), static_cast<long long>(elems * t.elem_bytes),
                      static_cast<long long>(kMaxTileBytes));
        return buf;
    }
    if (std::string e = check_swizzle(t.swizzle); !e.empty()) return e;
    const int layouts = (t.swizzle.bits > 0) + (t.tma != TmaSwizzle::none) + t.xor_rows + (t.rotate != 0);
    if (layouts > 1) return "cute_swizzle: give one of cute_swizzle, tma_swizzle, rotate and swizzle (col ^ row), not several";
    if (t.rotate < 0 || t.rotate > t.cols || (t.rotate > 0 && t.cols % t.rotate != 0))
        return "rotate: the rotated chunk must be 0 (off) or 1.." + std::to_string(t.cols) + " elements dividing the tile's " +
               std::to_string(t.cols) + " columns, got " + std::to_string(t.rotate);
    if (t.xor_rows && !std::has_single_bit(static_cast<unsigned>(t.cols)))
        return "swizzle: col ^ row on a tile needs a power-of-two number of columns, got " + std::to_string(t.cols);
    if (t.swizzle.bits > 0) {
        // Swizzle<B,M,S> changes offset bits [low, low + B): it stays inside each aligned block of 2^(low + B) elements.
        const std::int64_t block = std::int64_t{1} << swizzle_high_bit(t.swizzle);
        if (elems % block != 0) {
            std::snprintf(buf, sizeof buf,
                          "cute_swizzle: %s permutes aligned blocks of %lld elements; the tile's rows x pitch = %lld elements is not a "
                          "multiple of that, so elements would leave the tile",
                          cute_swizzle_type(t.swizzle).c_str(), static_cast<long long>(block), static_cast<long long>(elems));
            return buf;
        }
    }
    if (t.tma != TmaSwizzle::none) {
        const int span = tma_swizzle_span(t.tma);
        if (t.pad != 0) return "pad: TMA writes rows back to back; leave pad at 0 with tma_swizzle";
        // CUDA Driver API, cuTensorMapEncodeTiled: with a swizzle mode, boxDim[0] * element size must be <= the swizzle span.
        if (std::int64_t{t.cols} * t.elem_bytes > span) {
            std::snprintf(buf, sizeof buf,
                          "tma_swizzle: a %s swizzle takes rows (the box's inner dimension) of at most %d bytes, got %d x %d = %d bytes",
                          tma_swizzle_name(t.tma), span, t.cols, t.elem_bytes, t.cols * t.elem_bytes);
            return buf;
        }
        if (t.elem_bytes > tma_swizzle_atom(t.tma))
            return std::string("elem_bytes: ") + tma_swizzle_name(t.tma) + " moves " + std::to_string(tma_swizzle_atom(t.tma)) +
                   "-byte pieces; " + std::to_string(t.elem_bytes) + "-byte elements would be split";
        if ((elems * t.elem_bytes) % span != 0)
            return std::string("tile: with tma_swizzle ") + tma_swizzle_name(t.tma) + " the tile must be a multiple of " +
                   std::to_string(span) + " bytes";
        // The pattern repeats every 256, 512 or 1024 bytes and is taken from the address bits.
        if (t.base % static_cast<std::uint64_t>(tma_swizzle_repeat(t.tma)) != 0)
            return "base: a " + std::string(tma_swizzle_name(t.tma)) + " TMA tile must start at a multiple of " +
                   std::to_string(tma_swizzle_repeat(t.tma)) + " bytes";
    }
    return {};
}

std::uint64_t tile_byte_address(const TileLayout& t, int row, int col) {
    int c = t.xor_rows ? col ^ (row & (t.cols - 1)) : col;
    if (t.rotate > 0) {
        const int chunks = t.cols / t.rotate;
        c = ((c / t.rotate + row) % chunks) * t.rotate + c % t.rotate;
    }
    const std::int64_t elem = swizzle_apply(t.swizzle, std::int64_t{row} * t.pitch() + c);
    const std::int64_t bytes = tma_swizzle_apply(t.tma, elem * t.elem_bytes);
    return t.base + static_cast<std::uint64_t>(bytes);
}

// [SECTION] TileAccess

bool parse_tile_access(std::string_view name, int access_bytes, int elem_bytes, TileAccess& out) {
    TileAccess a;
    if (name == "row" || name == "cp_async" || name == "cp.async") {
        a.kind = name == "row" ? TileAccessKind::row : TileAccessKind::cp_async;
        a.bytes = access_bytes;
        out = a;
        return true;
    }
    if (name == "column") {
        a.kind = TileAccessKind::column;
        a.bytes = elem_bytes;
        out = a;
        return true;
    }
    for (const char* op : {"ldmatrix", "stmatrix"}) {
        const std::string_view o(op);
        if (name.rfind(o, 0) != 0) continue;
        std::string_view rest = name.substr(o.size());
        a.kind = o == "ldmatrix" ? TileAccessKind::ldmatrix : TileAccessKind::stmatrix;
        a.bytes = 16;
        if (rest.size() >= 6 && rest.substr(rest.size() - 6) == ".trans") {
            a.trans = true;
            rest.remove_suffix(6);
        }
        if (rest == ".x1") a.matrices = 1;
        else if (rest == ".x2") a.matrices = 2;
        else if (rest == ".x4") a.matrices = 4;
        else return false;
        out = a;
        return true;
    }
    return false;
}

std::string tile_access_name(const TileAccess& a) {
    switch (a.kind) {
        case TileAccessKind::row: return "row";
        case TileAccessKind::column: return "column";
        case TileAccessKind::cp_async: return "cp_async";
        default: break;
    }
    return std::string(a.kind == TileAccessKind::ldmatrix ? "ldmatrix" : "stmatrix") + ".x" + std::to_string(a.matrices) +
           (a.trans ? ".trans" : "");
}

namespace {

bool is_matrix(const TileAccess& a) { return a.kind == TileAccessKind::ldmatrix || a.kind == TileAccessKind::stmatrix; }
// Rows and bytes of a row one matrix instruction covers: x1 8 x 16, x2 16 x 16, x4 16 x 32.
int matrix_rows(const TileAccess& a) { return a.matrices == 1 ? 8 : 16; }
int matrix_row_bytes(const TileAccess& a) { return a.matrices == 4 ? 32 : 16; }

// The tile element lane `lane` of instruction `warp` starts at; false for an inactive lane.
bool lane_cell(const TileLayout& t, const TileAccess& a, int warp, int lane, int& row, int& col) {
    const int e = t.elem_bytes;
    if (a.kind == TileAccessKind::column) {
        const int blocks = (t.rows + kWarpLanes - 1) / kWarpLanes;
        col = warp / blocks;
        row = (warp % blocks) * kWarpLanes + lane;
        return row < t.rows;
    }
    if (is_matrix(a)) {
        // PTX ISA, ldmatrix: threads 0-7 give the row addresses of matrix 0, 8-15 of matrix 1, 16-23 of
        // matrix 2, 24-31 of matrix 3; .x1 uses threads 0-7, .x2 threads 0-15. Matrices are placed as the
        // A operand of mma.m16n8k16: matrix 0 rows 0-7, matrix 1 rows 8-15, matrices 2-3 the next 16 bytes.
        if (lane >= 8 * a.matrices) return false;
        const int mr = matrix_rows(a), mb = matrix_row_bytes(a);
        const int per_row = t.cols * e / mb;
        row = (warp / per_row) * mr + lane % mr;
        col = ((warp % per_row) * mb + (lane / mr) * 16) / e;
        return true;
    }
    const int per_row = t.cols * e / a.bytes;
    const std::int64_t k = std::int64_t{warp} * kWarpLanes + lane;
    if (k >= std::int64_t{t.rows} * per_row) return false;
    row = static_cast<int>(k / per_row);
    col = static_cast<int>(k % per_row) * (a.bytes / e);
    return true;
}

}  // namespace

std::string check_tile_access(const TileLayout& t, const TileAccess& a) {
    const int e = t.elem_bytes;
    const std::string name = tile_access_name(a);
    const int v = a.kind == TileAccessKind::column ? e : is_matrix(a) ? 16 : a.bytes;
    if (a.kind == TileAccessKind::cp_async && v != 4 && v != 8 && v != 16)
        return "access_bytes: cp.async copies 4, 8 or 16 bytes per lane (PTX ISA cp-size), got " + std::to_string(v);
    // A 32-byte row passes here; the model that counts it says whether it exists (global only, cc 10.0+:
    // global_access_unsupported, banks_access_unsupported).
    if (!valid_global_access_bytes(v)) return "access_bytes: must be 1, 2, 4, 8 or 16, got " + std::to_string(v);
    if (v < e)
        return "access_bytes: " + name + " moves " + std::to_string(v) + (v == 1 ? " byte" : " bytes") + " per lane, less than one " +
               std::to_string(e) + "-byte element";
    if (std::int64_t{t.cols} * e % (is_matrix(a) ? matrix_row_bytes(a) : v) != 0)
        return "tile: " + name + " needs rows of a multiple of " + std::to_string(is_matrix(a) ? matrix_row_bytes(a) : v) + " bytes, got " +
               std::to_string(t.cols) + " x " + std::to_string(e) + " bytes";
    if (is_matrix(a) && t.rows % matrix_rows(a) != 0)
        return "tile: " + name + " covers " + std::to_string(matrix_rows(a)) + " rows at a time; the tile's " + std::to_string(t.rows) +
               " rows are not a multiple";
    if (std::int64_t{t.pitch()} * e % v != 0 || t.base % static_cast<std::uint64_t>(v) != 0)
        return "pad: rows of " + std::to_string(t.pitch() * e) + " bytes (with pad) or the base break the " + std::to_string(v) +
               "-byte alignment of " + name + "; pad by a multiple of " + std::to_string(v / e) + " elements";
    if (v > e && t.xor_rows)
        return "swizzle: col ^ row moves single elements apart; " + name + " moves " + std::to_string(v) +
               " bytes per lane: use a CuTe swizzle";
    if (t.rotate > 0 && std::int64_t{t.rotate} * e < v)
        return "rotate: chunks of " + std::to_string(t.rotate) + " elements (" + std::to_string(t.rotate * e) + " bytes) would split " +
               name + "'s " + std::to_string(v) + " bytes; rotate by at least " + std::to_string(v / e) + " elements";
    if (t.tma == TmaSwizzle::b128_atom32_flip8 && tma_swizzle_atom(t.tma) < v)
        return std::string("tma_swizzle: ") + tma_swizzle_name(t.tma) +
               " swaps the 8-byte halves of each 16 bytes on every other 128-byte row, so " + name + "'s " + std::to_string(v) +
               " bytes are not contiguous there; read that layout with 8-byte (or narrower) accesses";
    if (t.swizzle.bits > 0 && (std::int64_t{e} << swizzle_low_bit(t.swizzle)) < v)
        return "cute_swizzle: " + cute_swizzle_type(t.swizzle) + " moves groups of " + std::to_string(e << swizzle_low_bit(t.swizzle)) +
               " bytes; " + name + " needs its " + std::to_string(v) + " bytes together: M must be at least " +
               std::to_string(log2_exact(v / e));
    return {};
}

int tile_access_warps(const TileLayout& t, const TileAccess& a) {
    if (a.kind == TileAccessKind::column) return t.cols * ((t.rows + kWarpLanes - 1) / kWarpLanes);
    if (is_matrix(a)) return (t.rows / matrix_rows(a)) * (t.cols * t.elem_bytes / matrix_row_bytes(a));
    const std::int64_t chunks = std::int64_t{t.rows} * (t.cols * t.elem_bytes / a.bytes);
    return static_cast<int>((chunks + kWarpLanes - 1) / kWarpLanes);
}

WarpAccess tile_warp_access(const TileLayout& t, const TileAccess& a, int warp) {
    WarpAccess w;
    w.access_bytes = a.kind == TileAccessKind::column ? t.elem_bytes : is_matrix(a) ? 16 : a.bytes;
    w.op = a.kind == TileAccessKind::stmatrix || a.kind == TileAccessKind::cp_async ? AccessOp::store : AccessOp::load;
    w.active = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        int r = 0, c = 0;
        if (!lane_cell(t, a, warp, lane, r, c)) continue;
        w.active |= 1u << lane;
        w.addr[static_cast<std::size_t>(lane)] = tile_byte_address(t, r, c);
    }
    return w;
}

WarpAccess tile_global_access(const TileLayout& t, const TileAccess& a, int warp, std::int64_t global_pitch, std::uint64_t global_base) {
    WarpAccess w;
    w.access_bytes = a.kind == TileAccessKind::column ? t.elem_bytes : a.bytes;
    w.op = AccessOp::load;
    w.active = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        int r = 0, c = 0;
        if (!lane_cell(t, a, warp, lane, r, c)) continue;
        w.active |= 1u << lane;
        w.addr[static_cast<std::size_t>(lane)] = global_base +
                                                 static_cast<std::uint64_t>((std::int64_t{r} * global_pitch + c) * t.elem_bytes);
    }
    return w;
}

// [SECTION] Analysis

int cp_async_source_wavefronts(int sectors) {
    // A model of three effects in reported counter measurements: a cp.async whose global source is not 32-byte aligned
    // cost one more shared wavefront, a strided source inflated the shared counters, and copies to one
    // destination did not merge. The shared writes are made as the global sectors arrive, 128 bytes (4
    // sectors) per wavefront at most, so a warp's copy needs at least ceil(sectors / 4) of them; the
    // aligned contiguous copy (4, 8, 16 sectors for 4-, 8-, 16-byte lanes) stays at the bank model's 1, 2, 4.
    // CUTLASS issue 2212 (cp.async.ca vs .cg changing the shared-store conflict count) shows the global
    // side reaching the shared counters too. cuda_validation measures it (cases "cp.async source").
    return (sectors + 3) / 4;
}

TileBankTotals tile_banks(const TileLayout& t, const TileAccess& a, std::vector<BankResult>* keep, const TileSource* source) {
    TileBankTotals s;
    s.warps = tile_access_warps(t, a);
    if (keep) keep->reserve(keep->size() + static_cast<std::size_t>(s.warps));
    std::int64_t worst = -1;
    const bool sourced = source && a.kind == TileAccessKind::cp_async;
    const std::int64_t gp = sourced && source->global_pitch > 0 ? source->global_pitch : t.cols;
    for (int wi = 0; wi < s.warps; ++wi) {
        BankResult r = analyze_banks(tile_warp_access(t, a, wi));
        if (sourced) {
            const int need = cp_async_source_wavefronts(analyze_global(tile_global_access(t, a, wi, gp, source->global_base)).sectors);
            s.source_wavefronts += need;
            if (need > r.wavefronts) {
                s.source_extra += need - r.wavefronts;
                r.conflicts += need - r.wavefronts;
                r.wavefronts = need;
            }
        }
        s.wavefronts += r.wavefronts;
        s.ideal_wavefronts += r.ideal_wavefronts;
        s.conflicts += r.conflicts;
        s.max_way = std::max(s.max_way, r.max_way);
        if (r.conflicts > worst) {
            worst = r.conflicts;
            s.worst_warp = wi;
        }
        if (keep) keep->push_back(r);
    }
    return s;
}

}  // namespace occ
