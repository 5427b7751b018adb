// amd_msgpack.cpp — a MessagePack reader, only as much as code-object metadata needs (the
// NT_AMDGPU_METADATA note is one MessagePack map: LLVM AMDGPUUsage, "Code Object V3 Metadata" and
// later). Formats from the MessagePack specification (github.com/msgpack/msgpack/blob/master/spec.md,
// "Formats"): nil, bool, int/uint (fixint, 8..64 bit), float 32/64, str, bin, array, map, ext.
// Hostile input: every length is checked against the bytes left before it is used, nesting is bounded,
// a container claims no more elements than bytes remain (each element takes at least one byte), and a
// map at most kMaxMapPairs keys.
#include <cstring>
#include <string>

#include "occ/io/amd_artefacts.hpp"

namespace occ::io {
namespace {

constexpr std::uint64_t kMaxMapPairs = 4096;  // a kernel's metadata map has about 25 keys

struct Reader {
    std::span<const unsigned char> b;
    std::size_t i = 0;
    int max_depth = 32;
    std::string error;

    bool fail(std::string what) {
        if (error.empty()) error = "MessagePack: " + what + " at byte " + std::to_string(i);
        return false;
    }
    std::size_t left() const { return b.size() - i; }
    bool need(std::size_t n) {
        return n <= left() || fail("truncated (" + std::to_string(n) + " bytes needed, " + std::to_string(left()) + " left)");
    }
    std::uint64_t be(std::size_t n) {  // big-endian, n bytes, after need(n)
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < n; ++k) v = v << 8 | b[i + k];
        i += n;
        return v;
    }
    bool length(std::size_t n, std::uint64_t& out) {
        if (!need(n)) return false;
        out = be(n);
        return true;
    }
    bool str(std::uint64_t n, json& out) {
        if (!need(n)) return false;
        out = std::string(reinterpret_cast<const char*>(b.data() + i), static_cast<std::size_t>(n));
        i += static_cast<std::size_t>(n);
        return true;
    }
    bool skip(std::uint64_t n, json& out) {  // bin / ext payloads: not needed, null
        if (!need(n)) return false;
        i += static_cast<std::size_t>(n);
        out = nullptr;
        return true;
    }
    bool array(std::uint64_t n, json& out, int depth) {
        if (n > left()) return fail("array of " + std::to_string(n) + " elements in " + std::to_string(left()) + " bytes");
        out = json::array();
        for (std::uint64_t k = 0; k < n; ++k) {
            json e;
            if (!value(e, depth + 1)) return false;
            out.push_back(std::move(e));
        }
        return true;
    }
    bool map(std::uint64_t n, json& out, int depth) {
        if (n > left() / 2) return fail("map of " + std::to_string(n) + " pairs in " + std::to_string(left()) + " bytes");
        // An ordered map looks its keys up one by one: a hostile map of many keys would take quadratic time.
        if (n > kMaxMapPairs)
            return fail("map of " + std::to_string(n) + " pairs (this reader takes " + std::to_string(kMaxMapPairs) + ")");
        out = json::object();
        for (std::uint64_t k = 0; k < n; ++k) {
            json key, v;
            const std::size_t at = i;
            if (!value(key, depth + 1)) return false;
            if (!key.is_string()) {
                i = at;
                return fail("map key is not a string");
            }
            if (!value(v, depth + 1)) return false;
            out[key.get<std::string>()] = std::move(v);
        }
        return true;
    }
    bool value(json& out, int depth) {
        if (depth > max_depth) return fail("nested deeper than " + std::to_string(max_depth) + " levels");
        if (!need(1)) return false;
        const unsigned char t = b[i++];
        std::uint64_t n = 0;
        if (t <= 0x7f) return out = t, true;
        if (t >= 0xe0) return out = static_cast<int>(static_cast<signed char>(t)), true;
        if (t >= 0x80 && t <= 0x8f) return map(t & 0x0f, out, depth);
        if (t >= 0x90 && t <= 0x9f) return array(t & 0x0f, out, depth);
        if (t >= 0xa0 && t <= 0xbf) return str(t & 0x1f, out);
        switch (t) {
            case 0xc0: out = nullptr; return true;
            case 0xc2: out = false; return true;
            case 0xc3: out = true; return true;
            case 0xc4: return length(1, n) && skip(n, out);
            case 0xc5: return length(2, n) && skip(n, out);
            case 0xc6: return length(4, n) && skip(n, out);
            case 0xc7: return length(1, n) && skip(n + 1, out);  // ext: type byte, then data
            case 0xc8: return length(2, n) && skip(n + 1, out);
            case 0xc9: return length(4, n) && skip(n + 1, out);
            case 0xca: {
                if (!need(4)) return false;
                const std::uint32_t v = static_cast<std::uint32_t>(be(4));
                float f;
                std::memcpy(&f, &v, 4);
                out = static_cast<double>(f);
                return true;
            }
            case 0xcb: {
                if (!need(8)) return false;
                const std::uint64_t v = be(8);
                double d;
                std::memcpy(&d, &v, 8);
                out = d;
                return true;
            }
            case 0xcc: return length(1, n) && (out = n, true);
            case 0xcd: return length(2, n) && (out = n, true);
            case 0xce: return length(4, n) && (out = n, true);
            case 0xcf: return length(8, n) && (out = n, true);
            case 0xd0: return length(1, n) && (out = static_cast<std::int8_t>(n), true);
            case 0xd1: return length(2, n) && (out = static_cast<std::int16_t>(n), true);
            case 0xd2: return length(4, n) && (out = static_cast<std::int32_t>(n), true);
            case 0xd3: return length(8, n) && (out = static_cast<std::int64_t>(n), true);
            case 0xd4: return skip(2, out);  // fixext 1..16: type byte + data
            case 0xd5: return skip(3, out);
            case 0xd6: return skip(5, out);
            case 0xd7: return skip(9, out);
            case 0xd8: return skip(17, out);
            case 0xd9: return length(1, n) && str(n, out);
            case 0xda: return length(2, n) && str(n, out);
            case 0xdb: return length(4, n) && str(n, out);
            case 0xdc: return length(2, n) && array(n, out, depth);
            case 0xdd: return length(4, n) && array(n, out, depth);
            case 0xde: return length(2, n) && map(n, out, depth);
            case 0xdf: return length(4, n) && map(n, out, depth);
            default:
                --i;
                return fail("unknown type byte 0x" + [&] {
                    static const char* d = "0123456789abcdef";
                    return std::string{d[t >> 4], d[t & 15]};
                }());
        }
    }
};

}  // namespace

Result<json> parse_msgpack(std::span<const unsigned char> bytes, int max_depth) {
    Reader r{bytes, 0, max_depth, {}};
    json out;
    if (!r.value(out, 0)) return Result<json>::fail(r.error);
    return Result<json>::ok(std::move(out));
}

}  // namespace occ::io
