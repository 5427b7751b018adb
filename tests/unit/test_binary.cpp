// test_binary.cpp — the cubin / fatbin / host-ELF reader (occ/io/binary.hpp) on the corpus that
// tests/fixtures/binaries/make_corpus.sh compiles: every kernel read from a binary equals what
// ptxas -v printed for the same compile (registers, static shared memory, stack frame, barriers,
// constant bank 0), every compression mode reads the same, and hostile or truncated files end in a
// clear error, never a crash or a made-up number.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"

namespace {

const std::string kDir = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/binaries/";

std::vector<unsigned char> bytes_of(const std::string& name) {
    std::ifstream f(kDir + name, std::ios::binary);
    REQUIRE_MESSAGE(f, "missing fixture " << name << " (tests/fixtures/binaries/make_corpus.sh)");
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string text_of(const std::string& name) {
    const std::vector<unsigned char> b = bytes_of(name);
    return {b.begin(), b.end()};
}

std::optional<std::int64_t> cmem0(const occ::io::PtxasKernel& k) {
    for (const auto& [bank, bytes] : k.cmem)
        if (bank == 0) return bytes;
    return std::nullopt;
}

// Every cubin kernel of `binary` against the ptxas log of the same compile, and the other way round.
void check_against_log(const std::string& binary, const std::string& log_name, std::size_t at_least = 20) {
    CAPTURE(binary);
    const occ::io::BinaryRead r = occ::io::read_binary_file(kDir + binary);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    const occ::io::PtxasLog log = occ::io::parse_ptxas_log(text_of(log_name));
    std::map<std::pair<std::string, std::string>, const occ::io::PtxasKernel*> expected;
    for (const occ::io::PtxasKernel& k : log.kernels)
        if (k.entry) expected[{k.mangled, k.arch}] = &k;
    REQUIRE(!expected.empty());
    std::size_t matched = 0;
    std::map<std::string, int> cubin_archs;
    for (const occ::io::PtxasKernel& k : r.kernels) {
        if (k.format == "ptx") continue;
        CAPTURE(k.mangled);
        CAPTURE(k.arch);
        ++cubin_archs[k.arch];
        const auto it = expected.find({k.mangled, k.arch});
        REQUIRE_MESSAGE(it != expected.end(), "a kernel the log does not list");
        const occ::io::PtxasKernel& e = *it->second;
        ++matched;
        CHECK(k.registers == e.registers);
        CHECK(k.smem_static.value_or(-1) == e.smem_static.value_or(0));
        CHECK(k.stack_frame == e.stack_frame);
        CHECK(k.barriers.value_or(-1) == e.barriers.value_or(0));
        // ptxas 13 prints cmem[0] up to sm_89 only; the cubin always has the section.
        CHECK(cmem0(k).has_value());
        if (cmem0(e)) CHECK(cmem0(k) == cmem0(e));
        if (e.cumulative_stack) CHECK(k.cumulative_stack == e.cumulative_stack);
        // Not in a binary: empty, never 0.
        CHECK(!k.spill_stores);
        CHECK(!k.spill_loads);
        CHECK(k.source_file == kDir + binary);
        CHECK(k.cc_major > 0);
    }
    // Every entry the log compiled for an architecture the binary holds as a cubin was found.
    std::size_t want = 0;
    for (const auto& [key, k] : expected) want += cubin_archs.count(key.second) ? 1 : 0;
    CHECK(matched == want);
    CHECK(matched >= at_least);
}

// Reads bytes held in memory; the error or "" when read.
occ::io::BinaryRead read_mem(const std::vector<unsigned char>& b) { return occ::io::read_binary("mem", b); }

void put32(std::vector<unsigned char>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<unsigned char>(v >> (8 * i));
}
void put64(std::vector<unsigned char>& b, std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b[at + i] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

TEST_CASE("binary: every cubin of the corpus equals its ptxas -v log") {
    int cubins = 0;
    for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"}) {
        std::ifstream probe(kDir + arch + ".cubin");
        if (!probe) continue;  // nvcc of the corpus did not support it
        check_against_log(std::string(arch) + ".cubin", std::string(arch) + ".log");
        ++cubins;
    }
    CHECK(cubins >= 6);
}

TEST_CASE("binary: fatbins of every compression mode, objects and libraries equal their logs") {
    for (const char* mode : {"none", "default", "size", "speed", "balance"})
        check_against_log(std::string("fatbin_") + mode + ".fatbin", std::string("fatbin_") + mode + ".log");
    check_against_log("host.o", "host.log");
    check_against_log("libkernels.so", "libkernels.log");
    check_against_log("rdc.o", "rdc.log");
    check_against_log("app", "app.log");
    check_against_log("suffixes.fatbin", "suffixes.log", 6);
}

TEST_CASE("binary: architecture-specific and family builds keep their suffix; cluster attributes are notes") {
    const occ::io::BinaryRead r = occ::io::read_binary_file(kDir + "suffixes.fatbin");
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    std::set<std::string> archs;
    bool cluster_note = false, rank_note = false;
    for (const occ::io::PtxasKernel& k : r.kernels) {
        archs.insert(k.arch);
        for (const std::string& d : k.diagnostics) {
            cluster_note = cluster_note || (k.mangled == "_Z14k_cluster_dimsPf" && d == "__cluster_dims__: 2x1x1");
            rank_note = rank_note || (k.mangled == "_Z16k_bounds_clusterPf" && d == "__launch_bounds__: at most 4 blocks per cluster");
        }
    }
    CHECK(archs == std::set<std::string>{"sm_90a", "sm_100f", "compute_120"});
    CHECK(cluster_note);
    CHECK(rank_note);
}

TEST_CASE("binary: the compressed fatbins read as the stored one; PTX entries are rows without resources") {
    const occ::io::BinaryRead none = occ::io::read_binary_file(kDir + "fatbin_none.fatbin");
    REQUIRE(none.error.empty());
    CHECK(none.format == "fatbin");
    CHECK(none.cubins == 2);
    CHECK(none.ptx == 1);
    for (const char* mode : {"default", "size", "speed", "balance"}) {
        CAPTURE(mode);
        const occ::io::BinaryRead r = occ::io::read_binary(mode, bytes_of(std::string("fatbin_") + mode + ".fatbin"));
        REQUIRE_MESSAGE(r.error.empty(), r.error);
        REQUIRE(r.kernels.size() == none.kernels.size());
        for (std::size_t i = 0; i < r.kernels.size(); ++i) {
            CHECK(r.kernels[i].mangled == none.kernels[i].mangled);
            CHECK(r.kernels[i].arch == none.kernels[i].arch);
            CHECK(r.kernels[i].registers == none.kernels[i].registers);
            CHECK(r.kernels[i].smem_static == none.kernels[i].smem_static);
        }
    }
    int ptx = 0;
    for (const occ::io::PtxasKernel& k : none.kernels) {
        if (k.format != "ptx") continue;
        ++ptx;
        CHECK(k.arch == "compute_90");
        CHECK(!k.registers);
        CHECK(!k.smem_static);
        CHECK(!k.stack_frame);
    }
    CHECK(ptx >= 20);
}

TEST_CASE("binary: architecture suffix, host files, names") {
    const occ::io::BinaryRead a = occ::io::read_binary_file(kDir + "sm_90a.cubin");
    REQUIRE(a.error.empty());
    REQUIRE(!a.kernels.empty());
    CHECK(a.kernels[0].arch == "sm_90a");
    CHECK(a.kernels[0].cc_major == 9);
    const occ::io::BinaryRead so = occ::io::read_binary_file(kDir + "libkernels.so");
    REQUIRE(so.error.empty());
    CHECK(so.format == "shared library");
    bool plain = false, templ = false;
    for (const occ::io::PtxasKernel& k : so.kernels) {
        plain = plain || (k.mangled == "k_plain" && k.name == "k_plain");
        templ = templ || k.name == "void k_template<double, 512>(double*)";
        CHECK(k.format == "fatbin");
        CHECK(k.source_entry.find(".nv_fatbin") == 0);
    }
    CHECK(plain);
    CHECK(templ);
    const occ::io::BinaryRead obj = occ::io::read_binary_file(kDir + "rdc.o");
    REQUIRE(obj.error.empty());
    CHECK(obj.format == "object file");
    CHECK(obj.kernels.front().source_entry.find("__nv_relfatbin") == 0);
    CHECK(occ::io::read_binary_file(kDir + "app").format == "executable");
}

TEST_CASE("binary: a file read piece by piece (pread) gives what its bytes in memory give") {
    for (const char* name : {"host.o", "libkernels.so", "app", "fatbin_speed.fatbin", "sm_120.cubin"}) {
        CAPTURE(name);
        const occ::io::BinaryRead f = occ::io::read_binary_file(kDir + name);
        const occ::io::BinaryRead m = occ::io::read_binary(kDir + name, bytes_of(name));
        REQUIRE(f.error.empty());
        CHECK(f.format == m.format);
        CHECK(f.cubins == m.cubins);
        REQUIRE(f.kernels.size() == m.kernels.size());
        for (std::size_t i = 0; i < f.kernels.size(); ++i) {
            CHECK(f.kernels[i].mangled == m.kernels[i].mangled);
            CHECK(f.kernels[i].source_entry == m.kernels[i].source_entry);
            CHECK(f.kernels[i].registers == m.kernels[i].registers);
            CHECK(f.kernels[i].cmem == m.kernels[i].cmem);
        }
    }
}

TEST_CASE("binary: not device code, missing files") {
    const occ::io::BinaryRead txt = read_mem({'h', 'e', 'l', 'l', 'o'});
    CHECK(txt.error.find("mem: not a cubin, fatbin or ELF file") == 0);
    CHECK(read_mem({}).error == "mem: empty file");
    const occ::io::BinaryRead none = occ::io::read_binary_file(kDir + "does-not-exist.cubin");
    CHECK(none.error.find("cannot open") != std::string::npos);
    // A folder is read as a Triton cache (test_triton.cpp); one without Triton metadata says so.
    const occ::io::BinaryRead dir = occ::io::read_binary_file(kDir);
    CHECK(dir.error.find("no Triton kernels in this folder") != std::string::npos);
}

TEST_CASE("binary: every truncation of a cubin and a fatbin ends in an error or fewer kernels, never a crash") {
    for (const char* name : {"sm_80.cubin", "fatbin_size.fatbin", "fatbin_speed.fatbin"}) {
        CAPTURE(name);
        const std::vector<unsigned char> full = bytes_of(name);
        const std::size_t whole = read_mem(full).kernels.size();
        const std::size_t step = std::max<std::size_t>(1, full.size() / 509);
        for (std::size_t n = 0; n < full.size(); n += step) {
            const std::vector<unsigned char> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
            const occ::io::BinaryRead r = read_mem(cut);
            CAPTURE(n);
            CHECK((!r.error.empty() || r.kernels.size() <= whole));
            CHECK((r.error.empty() || r.error.rfind("mem: ", 0) == 0));
        }
    }
}

TEST_CASE("binary: hostile headers get a clear error") {
    const std::vector<unsigned char> fat = bytes_of("fatbin_none.fatbin");
    SUBCASE("fatbin size past the end") {
        std::vector<unsigned char> b = fat;
        put64(b, 8, 1ull << 62);
        CHECK(read_mem(b).error.find("says it holds") != std::string::npos);
    }
    SUBCASE("entry payload past the end") {
        std::vector<unsigned char> b = fat;
        put64(b, 16 + 8, 1ull << 40);
        CHECK(read_mem(b).error.find("runs past the fatbin") != std::string::npos);
    }
    SUBCASE("entry header size 0 (would loop)") {
        std::vector<unsigned char> b = fat;
        put32(b, 16 + 4, 0);
        CHECK(read_mem(b).error.find("entry header size 0 is impossible") != std::string::npos);
    }
    SUBCASE("decompressed size over the cap") {
        std::vector<unsigned char> b = bytes_of("fatbin_size.fatbin");
        put64(b, 16 + 0x38, 1ull << 40);
        const std::string e = read_mem(b).error;
        CHECK(e.find("more than the 256 MiB") != std::string::npos);
        CHECK(e.find("entry 0") != std::string::npos);
    }
    SUBCASE("decompressed size that disagrees with the data") {
        std::vector<unsigned char> b = bytes_of("fatbin_speed.fatbin");
        put64(b, 16 + 0x38, 1000);
        CHECK(!read_mem(b).error.empty());
    }
    SUBCASE("corrupt compressed data") {
        std::vector<unsigned char> b = bytes_of("fatbin_size.fatbin");
        for (std::size_t i = 16 + 64 + 8; i < 16 + 64 + 200; ++i) b[i] ^= 0x5a;
        CHECK(read_mem(b).error.find("entry 0") != std::string::npos);
    }
    SUBCASE("zero padding between and after fatbins is skipped; stray bytes are not") {
        std::vector<unsigned char> b = fat;
        b.resize(b.size() + 20000, 0);
        b.insert(b.end(), fat.begin(), fat.end());
        b.resize(b.size() + 12, 0);
        const occ::io::BinaryRead r = read_mem(b);
        CHECK_MESSAGE(r.error.empty(), r.error);
        CHECK(r.cubins == 4);
        b.back() = 1;
        CHECK(read_mem(b).error.find("stray bytes") != std::string::npos);
    }
    const std::vector<unsigned char> cubin = bytes_of("sm_80.cubin");
    SUBCASE("section table past the end") {
        std::vector<unsigned char> b = cubin;
        put64(b, 40, 1ull << 50);
        CHECK(read_mem(b).error.find("section table offset") != std::string::npos);
    }
    SUBCASE("more sections than the file holds") {
        std::vector<unsigned char> b = cubin;
        b[60] = 0xff;
        b[61] = 0xfe;
        CHECK(read_mem(b).error.find("do not fit") != std::string::npos);
    }
    SUBCASE("a section past the end") {
        std::vector<unsigned char> b = cubin;
        const std::uint64_t shoff = [&] {
            std::uint64_t v = 0;
            for (int i = 7; i >= 0; --i) v = v << 8 | b[40 + i];
            return v;
        }();
        // Every section's size huge: the name table is the first checked.
        for (std::size_t s = 1; (shoff + s * 64 + 64) <= b.size() && s < 200; ++s) put64(b, shoff + s * 64 + 32, 1ull << 60);
        CHECK(read_mem(b).error.find("lies outside the file") != std::string::npos);
    }
    SUBCASE("a host ELF whose .nv_fatbin is not a fatbin") {
        std::vector<unsigned char> b = bytes_of("host.o");
        const std::size_t at = static_cast<std::size_t>(std::search(b.begin(), b.end(), fat.begin(), fat.begin() + 8) - b.begin());
        REQUIRE(at < b.size());
        b[at] = 0x51;
        CHECK(read_mem(b).error.find("no fatbin header") != std::string::npos);
    }
    SUBCASE("a 32-bit ELF") {
        std::vector<unsigned char> b = cubin;
        b[4] = 1;
        CHECK(read_mem(b).error.find("32-bit ELF") != std::string::npos);
    }
}

TEST_CASE("binary: the kernels request kind reads base64 files and evaluates like ptxas") {
    using json = nlohmann::ordered_json;
    const std::vector<unsigned char> b = bytes_of("sm_80.cubin");
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string b64;
    for (std::size_t i = 0; i < b.size(); i += 3) {
        const std::uint32_t v = b[i] << 16 | (i + 1 < b.size() ? b[i + 1] << 8 : 0) | (i + 2 < b.size() ? b[i + 2] : 0);
        b64 += abc[v >> 18 & 63];
        b64 += abc[v >> 12 & 63];
        b64 += i + 1 < b.size() ? abc[v >> 6 & 63] : '=';
        b64 += i + 2 < b.size() ? abc[v & 63] : '=';
    }
    const json out = occ::io::api_kernels(
        json{{"files", json::array({{{"name", "k.cubin"}, {"base64", b64}}})}, {"gpu", "A100"}, {"threads", 128}});
    REQUIRE_MESSAGE(out["error"].is_null(), out.dump());
    REQUIRE(out["kernels"].size() >= 20);
    const json& row = out["kernels"][0];
    CHECK(row["format"] == "cubin");
    CHECK(row["arch"] == "sm_80");
    CHECK(row["source"]["file"] == "k.cubin");
    CHECK(row["source"]["entry"].is_null());
    CHECK(row["resources"]["spill_stores"].is_null());
    CHECK(row["occupancy"].is_object());
    CHECK(out["files"][0]["format"] == "cubin");

    CHECK(occ::io::api_kernels(json::object())["error"].get<std::string>().find("files") != std::string::npos);
    CHECK(occ::io::api_kernels(json{{"files", json::array({{{"name", "x"}, {"base64", "@@"}}})}})["error"].get<std::string>().find(
              "not valid base64") != std::string::npos);
    CHECK(occ::io::api_kernels(json{{"files", json::array({{{"base64", b64}}})}, {"regs", 32}})["error"].get<std::string>().find(
              "comes from the binary") != std::string::npos);
    const json bad = occ::io::api_kernels(json{{"files", json::array({{{"name", "t.txt"}, {"base64", "aGVsbG8="}}})}});
    CHECK(bad["error"].get<std::string>().find("t.txt: not a cubin") == 0);
}

TEST_CASE("text logs: one table tells the compiler and profiler texts apart, and read_binary_file reads each") {
    using occ::io::TextLog;
    const std::string fx = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/";
    const struct {
        std::string path;
        TextLog kind;
        bool compiler_log;
    } cases[] = {
        {fx + "binaries/sm_80.log", TextLog::ptxas, true},
        {fx + "amd/kernels_gfx942.s", TextLog::amd_compiler, true},
        {fx + "rocprof/tutorial_vgprbound.txt", TextLog::rocprof_compute, false},
        {fx + "rocprof/dispatch_0_mi300x/pmc_perf.csv", TextLog::rocprof_csv, false},
    };
    for (const auto& c : cases) {
        CAPTURE(c.path);
        std::ifstream f(c.path, std::ios::binary);
        REQUIRE(f);
        const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        const occ::io::TextLogFormat& format = occ::io::text_log_format(text);
        CHECK(format.kind == c.kind);
        CHECK(format.compiler_log == c.compiler_log);
        const occ::io::BinaryRead r = occ::io::read_binary_file(c.path);
        CHECK(r.error == "");
        REQUIRE(r.text_log == &format);
        CHECK(r.format == format.name);
        CHECK(r.kernels.size() == format.parse(text).kernels.size());
        CHECK_FALSE(r.kernels.empty());
    }
    // A text no format's test matches and with no "Used N registers" line is not a log.
    CHECK(occ::io::text_log_format("hello").kind == TextLog::ptxas);
    CHECK(read_mem({'h', 'e', 'l', 'l', 'o'}).not_binary);
    // One whose test matches but that holds no kernel says what it lacks.
    const std::string csv = "Dispatch_ID,Kernel_Name,GPU_ID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,Arch_VGPR,Accum_VGPR,SGPR\n";
    const occ::io::BinaryRead empty = occ::io::read_binary("pmc_perf.csv",
                                                           std::span(reinterpret_cast<const unsigned char*>(csv.data()), csv.size()));
    CHECK(empty.error == "pmc_perf.csv: pmc_perf.csv without a dispatch (a header only)");
}
