// cmd_coalesce.cpp — `occ coalesce`: how a warp's global-memory access becomes 32-byte sectors.
// Also holds the access-description flags that `occ banks` (cmd_banks.cpp) shares.
//
// [SECTION] Access flags -> JSON request (shared with banks)
// [SECTION] Terminal helpers (wrapping, lane ranges)
// [SECTION] The human picture: lanes -> sectors
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"

namespace occ::cli {

// [SECTION] Access flags

struct AccessFlags {
    std::string gpu, cc, bytes, elem_bytes, op, addresses, pattern, base, offset, stride, active, block, threads, pitch, pad, order, seed,
        range, warp;
    bool swizzle = false, as_json = false, batch = false;
};

namespace {

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, sep)) out.push_back(trim(part));
    return out;
}

bool parse_long(const std::string& s, long long& v) {
    try {
        std::size_t pos = 0;
        v = std::stoll(s, &pos, 0);
        return pos == s.size();
    } catch (...) {
        return false;
    }
}

// "0xffff", "65535" -> as given (the JSON reader checks it); "0-15,20,24-31" -> a mask number.
json lanes_value(const std::string& text) {
    const std::string t = trim(text);
    const bool list = t.find(',') != std::string::npos || (t.find('-') != std::string::npos && t.rfind("0x", 0) != 0);
    if (!list) return t;
    std::uint64_t mask = 0;
    for (const std::string& part : split(t, ',')) {
        long long lo = 0, hi = 0;
        const auto dash = part.find('-');
        const bool ok = dash == std::string::npos ? parse_long(part, lo) && (hi = lo, true)
                                                  : parse_long(part.substr(0, dash), lo) && parse_long(part.substr(dash + 1), hi);
        if (!ok || lo < 0 || hi > 31 || lo > hi)
            throw io::RequestError("active_lanes: must be a mask (0xffff) or lane ranges 0..31 like 0-15,20, got \"" + text + "\"");
        for (long long l = lo; l <= hi; ++l) mask |= 1ull << l;
    }
    return mask;
}

}  // namespace

json access_request_from(const AccessFlags& o) {
    json r = json::object();
    auto put = [&](const char* k, const std::string& v) { if (!v.empty()) r[k] = v; };
    put("gpu", o.gpu);
    put("cc", o.cc);
    put("access_bytes", o.bytes);
    put("elem_bytes", o.elem_bytes);
    put("op", o.op);
    put("pattern", o.pattern);
    put("base", o.base);
    put("offset", o.offset);
    put("stride", o.stride);
    put("threads", o.threads);
    put("pitch", o.pitch);
    put("pad", o.pad);
    put("order", o.order);
    put("seed", o.seed);
    put("range", o.range);
    if (o.swizzle) r["swizzle"] = true;
    if (!o.active.empty()) r["active_lanes"] = lanes_value(o.active);
    if (!o.addresses.empty()) {
        json a = json::array();
        for (const std::string& part : split(o.addresses, ',')) {
            if (part == "-" || part == "null" || part == "_" || part == ".") { a.push_back(nullptr); continue; }
            a.push_back(part);
        }
        r["addresses"] = a;
    }
    if (!o.block.empty()) {
        json b = json::array();
        for (const std::string& part : split(o.block, o.block.find('x') != std::string::npos ? 'x' : ',')) {
            long long v = 0;
            if (!parse_long(part, v)) throw io::RequestError("block: must be X[,Y[,Z]] with integers, e.g. 32,8 or 16x16 (got \"" + o.block + "\")");
            b.push_back(v);
        }
        r["block"] = b;
    }
    return r;
}

// cmd_banks.cpp sees AccessFlags only as an incomplete type, through these.
std::shared_ptr<AccessFlags> make_access_flags() { return std::make_shared<AccessFlags>(); }
bool access_flags_batch(const AccessFlags& o) { return o.batch; }
bool access_flags_json(const AccessFlags& o) { return o.as_json; }
std::string access_flags_warp(const AccessFlags& o) { return o.warp; }

// Registers the flags both memory commands take; `o` must outlive parsing.
void add_access_flags(CLI::App* cmd, AccessFlags& o) {
    cmd->add_option("--gpu,-g", o.gpu, "GPU name or alias, see `occ gpus` [A100-SXM4-80GB]");
    cmd->add_option("--cc", o.cc, "Compute capability instead of a GPU, e.g. 9.0");
    cmd->add_option("--bytes,-b", o.bytes, "Bytes per lane: 1, 2, 4, 8, 16 (float4) [4]");
    cmd->add_option("--elem-bytes", o.elem_bytes, "Element size for indexing [= --bytes]");
    cmd->add_option("--op", o.op, "load or store [load]");
    cmd->add_option("--addresses,-a", o.addresses, "Byte address per lane: 0,4,8,-,16 (- = inactive)");
    cmd->add_option("--pattern,-p", o.pattern, "affine, 2d or gather [from the flags given]");
    cmd->add_option("--base", o.base, "Base byte address, decimal or 0x hex [0]");
    cmd->add_option("--offset", o.offset, "Bytes added to every address (4 = one float) [0]");
    cmd->add_option("--stride,-s", o.stride, "affine: elements between threads [1]");
    cmd->add_option("--active-lanes", o.active, "Lane mask 0xffff or ranges 0-15,20 [all]");
    cmd->add_option("--block", o.block, "Block shape, x fastest: 32,8 or 16x16 [32]");
    cmd->add_option("--threads,-t", o.threads, "1-D block size instead of --block [32]");
    cmd->add_option("--order", o.order, "2d: row = A[ty*pitch+tx], column = A[tx*pitch+ty]");
    cmd->add_option("--pitch", o.pitch, "2d: elements per row [block extent]");
    cmd->add_option("--pad", o.pad, "2d: padding elements per row, tile[32][32+pad]");
    cmd->add_flag("--swizzle", o.swizzle, "2d: XOR-swizzle the column: col ^ row");
    cmd->add_option("--seed", o.seed, "gather: random seed [1]");
    cmd->add_option("--range", o.range, "gather: random index < range; 0 = permutation");
    cmd->add_option("--warp,-w", o.warp, "Warp to draw [the worst one]");
    cmd->add_flag("--json", o.as_json, "Print one JSON object");
    cmd->add_flag("--batch", o.batch, "JSON Lines in on stdin, one JSON line out each");
}

// [SECTION] Terminal helpers

// "0-7", "0, 2, 4" ...: lanes of a mask as compact ranges, at most `width` characters.
std::string lane_ranges(std::uint32_t mask, std::size_t width) {
    std::string s;
    for (int lane = 0; lane < 32;) {
        if (!((mask >> lane) & 1u)) { ++lane; continue; }
        int end = lane;
        while (end + 1 < 32 && ((mask >> (end + 1)) & 1u)) ++end;
        std::string part = end == lane ? std::to_string(lane) : end == lane + 1 ? std::to_string(lane) + "," + std::to_string(end)
                                                                               : std::to_string(lane) + "-" + std::to_string(end);
        if (!s.empty()) part = "," + part;
        if (s.size() + part.size() > width) { s += ",..."; break; }
        s += part;
        lane = end + 1;
    }
    return s;
}

// Wraps `text` to 80 columns; the first line starts after `label`, the rest are indented to match.
void print_wrapped(const char* label, const std::string& text) {
    const std::size_t indent = std::string(label).size(), width = 80 - indent;
    std::istringstream words(text);
    std::string word, line;
    bool first = true;
    auto flush = [&] {
        std::printf("%s%s\n", first ? label : std::string(indent, ' ').c_str(), line.c_str());
        first = false;
        line.clear();
    };
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > width) flush();
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty() || first) flush();
}

// One character per index: 0-9, then a-z, then A-Z; '.' for none.
char index_char(const json& v) {
    if (!v.is_number_integer()) return '.';
    const int i = v.get<int>();
    if (i < 10) return static_cast<char>('0' + i);
    if (i < 36) return static_cast<char>('a' + i - 10);
    if (i < 62) return static_cast<char>('A' + i - 36);
    return '+';
}

// The lane ruler used by both pictures: tens on one line, units on the next.
void print_lane_ruler(const char* label) {
    std::printf("  %-8s0         1         2         3\n", label);
    std::printf("  %-8s01234567890123456789012345678901\n", "");
}

// "4-byte loads, stride 2, block 32x1x1 (1 warp)" from the echoed input.
std::string describe_input(const json& in, int warps) {
    std::string s = std::to_string(in.value("access_bytes", 4)) + "-byte " + in.value("op", std::string("load")) + "s, " + in.value("pattern", std::string("affine"));
    const std::string kind = in.value("pattern", std::string("affine"));
    if (kind == "affine") s += " stride " + std::to_string(in.value("stride", 1));
    if (kind == "2d")
        s += " " + in.value("order", std::string("row")) + " order, pitch " + std::to_string(in.value("pitch", 0)) +
             (in.value("pad", 0) ? " + pad " + std::to_string(in.value("pad", 0)) : "") + (in.value("swizzle", false) ? ", XOR swizzle" : "");
    if (kind == "gather")
        s += in.value("range", 0) ? " random in [0, " + std::to_string(in.value("range", 0)) + ")" : " permutation";
    if (kind != "addresses") {
        if (in.value("offset", 0) != 0) s += ", offset " + std::to_string(in.value("offset", 0)) + " B";
        const json& b = in["block"];
        s += ", block " + std::to_string(b[0].get<int>()) + "x" + std::to_string(b[1].get<int>()) + "x" + std::to_string(b[2].get<int>());
    }
    s += " (" + std::to_string(warps) + (warps == 1 ? " warp)" : " warps)");
    return s;
}

// Which warp to draw: --warp if given and valid, else the worst one.
int pick_warp(const json& res, const std::string& flag) {
    const int n = res.value("warps", 1);
    if (!flag.empty()) {
        long long v = 0;
        if (!parse_long(flag, v) || v < 0 || v >= n)
            throw io::RequestError("warp: must be 0.." + std::to_string(n - 1) + ", got " + flag);
        return static_cast<int>(v);
    }
    return res.value("worst_warp", 0);
}

namespace {

// [SECTION] The human picture

void print_coalesce(const json& res, const std::string& warp_flag) {
    const json& in = res["input"];
    const json& dev = res["device"];
    const int wi = pick_warp(res, warp_flag);
    std::printf("coalesce  %s (cc %s)\n", dev["name"].get<std::string>().c_str(), dev["cc"].get<std::string>().c_str());
    print_wrapped("  access  ", describe_input(in, res["warps"].get<int>()));
    std::printf("\n  requests %-6lld sectors %lld (ideal %lld, excess %lld)   lines %lld\n", res["requests"].get<long long>(),
                res["sectors"].get<long long>(), res["ideal_sectors"].get<long long>(), res["excess_sectors"].get<long long>(),
                res["lines"].get<long long>());
    std::printf("  bytes    %s requested / %s transferred   efficiency %s\n", format_count(res["bytes_requested"].get<long long>()).c_str(),
                format_count(res["bytes_transferred"].get<long long>()).c_str(), format_percent(res["efficiency"].get<double>()).c_str());
    std::printf("\n");
    print_wrapped("  why  ", res["reason"].get<std::string>());
    if (!res["fix"].is_null()) print_wrapped("  fix  ", res["fix"].get<std::string>());

    const json& w = res["per_warp"][static_cast<std::size_t>(wi)];
    std::printf("\n  warp %d: lanes -> sectors (%d sectors; '.' = inactive lane)\n", wi, w["sectors"].get<int>());
    print_lane_ruler("lane");
    std::string row;
    for (const json& s : w["lane_sector"]) row += index_char(s);
    std::printf("  %-8s%s\n\n", "sector", row.c_str());

    const json& addrs = w["sector_address"];
    const json& used = w["sector_used_bytes"];
    const std::size_t n = addrs.size(), shown = n > 16 ? 12 : n;
    std::printf("  %6s  %-18s %5s  %s\n", "sector", "address", "used", "lanes");
    for (std::size_t s = 0; s < shown; ++s) {
        std::uint32_t mask = 0;
        for (int lane = 0; lane < 32; ++lane)
            if (w["lane_sector"][static_cast<std::size_t>(lane)] == json(s)) mask |= 1u << lane;
        char addr[32];
        std::snprintf(addr, sizeof addr, "0x%llx", addrs[s].get<unsigned long long>());
        const int u = used[s].get<int>();
        std::string bar(static_cast<std::size_t>(u / 4), '#');
        bar.resize(8, '.');
        std::printf("  %6c  %-18s %2d/32  %s  %s\n", index_char(json(s)), addr, u, bar.c_str(), lane_ranges(mask, 30).c_str());
    }
    if (shown < n) std::printf("  ... %zu more sectors (--json lists them all)\n", n - shown);
}

}  // namespace

void add_coalesce(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<AccessFlags>();
    auto* cmd = app.add_subcommand("coalesce", "Global-memory coalescing: sectors, lines, efficiency (cc >= 6.0)");
    cmd->footer(
        "\nOne warp-level load or store is one request; it moves every distinct 32-byte\n"
        "sector its active lanes touch. Lanes are numbered threadIdx.x fastest; a block's\n"
        "warps are 32 consecutive threads.\n\n"
        "Examples (CUDA Best Practices Guide, \"Coalesced Access to Global Memory\"):\n"
        "  occ coalesce                      # 32 consecutive floats: 4 sectors, 100%\n"
        "  occ coalesce --offset 4           # shifted one float: 5 sectors, 80%\n"
        "  occ coalesce --stride 2           # every other float: 8 sectors, 50%\n"
        "  occ coalesce --stride 32          # a sector per lane: 32 sectors, 12.5%\n"
        "  occ coalesce --bytes 16           # float4 per lane: 16 sectors, 1 request\n"
        "  occ coalesce --block 16,16 --pitch 1000   # 2-D block: 2 rows per warp\n"
        "  occ coalesce --block 32,32 --order column # A[threadIdx.x*pitch + threadIdx.y]\n"
        "  occ coalesce --range 1000000 --seed 7     # random gather\n"
        "  occ coalesce --addresses 0,4,8,-,16 --json\n"
        "  echo '{\"stride\":2}' | occ coalesce --batch\n\n"
        "--batch lines carry the fields --json echoes under \"input\": gpu|cc,\n"
        "access_bytes, elem_bytes, op, active_lanes, and addresses (up to 32, null =\n"
        "inactive) or a pattern (affine: base, offset, stride; 2d: block, order, pitch,\n"
        "pad, swizzle; gather: seed, range), id. See docs/MEMORY.md.");
    add_access_flags(cmd, *o);
    cmd->callback([o, &out] {
        if (o->batch) {
            out.code = run_batch("coalesce", std::cin, std::cout);
            return;
        }
        json res;
        try {
            res = io::handle("coalesce", access_request_from(*o));
            if (!res.contains("error") || res["error"].is_null()) pick_warp(res, o->warp);
        } catch (const io::RequestError& e) {
            res = json{{"error", e.what()}};
        }
        out.code = emit(res, o->as_json, [o](const json& r) { print_coalesce(r, o->warp); });
    });
}

}  // namespace occ::cli
