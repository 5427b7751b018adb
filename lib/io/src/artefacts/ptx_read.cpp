// ptx_read.cpp — PTX text into ptx::Program (occ/io/ptx.hpp): comments, statements, directives,
// entries. One instruction's syntax is read by ptx_operands.cpp.
//
// [SECTION] Comments out · [SECTION] Directives (.loc, .file, .reg, .shared, .param)
// [SECTION] Entry headers · [SECTION] The statement loop
//
// PTX ISA, "Syntax": statements end with ';' except the debugging and module directives that end
// with their line (.version, .target, .address_size, .file, .loc); '{' opens a function body or a
// nested scope (inline asm writes "{ .reg .pred p; ... }"), and inside a statement it opens a
// vector operand or an initializer.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "occ/io/ptx.hpp"
#include "ptx_read_detail.hpp"

namespace occ::io {
namespace {

using namespace ptx_detail;

std::string at_line(int line, const std::string& msg) { return "line " + std::to_string(line) + ": " + msg; }

// [SECTION] Comments out
// Replaces // and /* */ comments with spaces (newlines kept, so positions keep their line), leaving
// string literals alone. Empty on success, else the error.
std::string strip_comments(std::string_view in, std::string& out) {
    out.assign(in.begin(), in.end());
    int line = 1, open_line = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (c == '\n') {
            ++line;
            in_string = false;  // a string never spans lines in PTX
            continue;
        }
        if (c == '\0') return at_line(line, "NUL byte in the text");
        if (in_string) {
            if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
            --i;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            open_line = line;
            out[i] = out[i + 1] = ' ';
            i += 2;
            while (i + 1 < out.size() && !(out[i] == '*' && out[i + 1] == '/')) {
                if (out[i] == '\n') ++line;
                else out[i] = ' ';
                ++i;
            }
            if (i + 1 >= out.size()) return at_line(open_line, "unterminated /* comment");
            out[i] = out[i + 1] = ' ';
            ++i;
        }
    }
    return {};
}

// Whitespace-separated words, a comma or a bracket ending a word too.
std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> w;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i;
        const std::size_t b = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != ',') ++i;
        if (i > b) w.push_back(s.substr(b, i - b));
    }
    return w;
}

bool to_int(std::string_view s, std::int64_t& v) { return parse_int(s, v); }

// [SECTION] Directives
struct Reader {
    const PtxLimits& lim;
    ptx::Program prog;
    std::size_t instructions = 0;
    // .loc state of the entry being read: the current position, its outermost caller, and the
    // outer caller of each position seen (to follow inlined_at chains).
    ptx::SourceLoc loc, outer;
    std::vector<std::pair<ptx::SourceLoc, ptx::SourceLoc>> outer_of;

    void diag(int line, const std::string& msg) {
        if (prog.diagnostics.size() < lim.max_diagnostics) prog.diagnostics.push_back(at_line(line, msg));
    }

    // .loc file line column [, function_name label] [, inlined_at file line column]
    std::string read_loc(std::string_view body, int line) {
        const auto w = words(body);
        std::int64_t f = 0, l = 0, c = 0;
        if (w.size() < 3 || !to_int(w[0], f) || !to_int(w[1], l) || !to_int(w[2], c) || f < 0 || l < 0 || c < 0 || f > 1'000'000 ||
            l > 100'000'000 || c > 100'000)
            return at_line(line, ".loc needs three small non-negative integers: file line column");
        const ptx::SourceLoc here{static_cast<int>(f), static_cast<int>(l), static_cast<int>(c)};
        ptx::SourceLoc out = here;
        for (std::size_t i = 3; i < w.size(); ++i) {
            if (w[i] != "inlined_at") continue;
            std::int64_t f2 = 0, l2 = 0, c2 = 0;
            if (i + 3 >= w.size() || !to_int(w[i + 1], f2) || !to_int(w[i + 2], l2) || !to_int(w[i + 3], c2) || f2 < 0 || l2 < 0 ||
                c2 < 0 || f2 > 1'000'000 || l2 > 100'000'000 || c2 > 100'000)
                return at_line(line, ".loc inlined_at needs file line column");
            const ptx::SourceLoc caller{static_cast<int>(f2), static_cast<int>(l2), static_cast<int>(c2)};
            out = caller;
            for (const auto& [pos, o] : outer_of)
                if (pos == caller) out = o;
        }
        loc = here;
        outer = out;
        if (outer_of.size() < 4096) outer_of.emplace_back(here, out);
        return {};
    }

    // .file index "path" [, timestamp, size]
    std::string read_file(std::string_view body, int line) {
        body = trim(body);
        std::size_t e = 0;
        while (e < body.size() && std::isdigit(static_cast<unsigned char>(body[e]))) ++e;
        std::int64_t idx = 0;
        if (!to_int(body.substr(0, e), idx) || idx > 1'000'000) return at_line(line, ".file needs an index");
        const auto q1 = body.find('"', e), q2 = q1 == std::string_view::npos ? q1 : body.find('"', q1 + 1);
        if (q2 == std::string_view::npos) return at_line(line, ".file needs a quoted path");
        if (prog.files.size() < 100'000) prog.files.push_back({static_cast<int>(idx), std::string(body.substr(q1 + 1, q2 - q1 - 1))});
        return {};
    }

    // .reg .b32 %r<12>;   .reg .pred %p, %q;   .reg .v4 .b32 %v;
    std::string read_reg(std::string_view body, int line, ptx::Entry& e) {
        std::string type;
        std::size_t i = 0;
        const auto w = words(body);
        for (; i < w.size() && w[i].front() == '.'; ++i) type = std::string(w[i].substr(1));
        if (i == w.size()) return at_line(line, ".reg declares no register");
        for (; i < w.size(); ++i) {
            std::string_view n = w[i];
            ptx::RegDecl d{type, {}, 0};
            if (const auto lt = n.find('<'); lt != std::string_view::npos) {
                std::int64_t cnt = 0;
                if (n.back() != '>' || !to_int(n.substr(lt + 1, n.size() - lt - 2), cnt) || cnt < 0 || cnt > (1 << 24))
                    return at_line(line, "bad register range '" + std::string(n.substr(0, 40)) + "'");
                d.name = std::string(n.substr(0, lt));
                d.count = static_cast<int>(cnt);
            } else {
                d.name = std::string(n);
            }
            if (e.regs.size() < 100'000) e.regs.push_back(std::move(d));
        }
        return {};
    }

    // [.extern] .shared [.align N] .type name[dim]...[dim];
    std::string read_shared(std::string_view body, int line, bool is_extern, std::vector<ptx::SharedVar>& into) {
        ptx::SharedVar v;
        v.is_extern = is_extern;
        const auto w = words(body);
        std::size_t i = 0;
        for (; i < w.size() && w[i].front() == '.'; ++i) {
            if (w[i] == ".align") {
                std::int64_t a = 0;
                if (i + 1 >= w.size() || !to_int(w[i + 1], a) || a < 1 || a > (1 << 20) || (a & (a - 1)) != 0)
                    return at_line(line, ".align needs a power of two");
                v.align = static_cast<int>(a);
                ++i;
            } else if (ptx::is_type_name(w[i].substr(1))) {
                v.type = std::string(w[i].substr(1));
            }
        }
        if (i >= w.size()) return at_line(line, ".shared declares no variable");
        std::string_view n = w[i];
        const auto br = n.find('[');
        v.name = std::string(n.substr(0, br));
        const std::int64_t elem = std::max(1, ptx::type_bytes(v.type));
        std::int64_t bytes = elem;
        bool unsized = false;
        // Dimensions may be split over words ("tile[32] [33]"): join the rest.
        std::string dims;
        if (br != std::string_view::npos) dims = std::string(n.substr(br));
        for (std::size_t j = i + 1; j < w.size() && w[j].front() == '['; ++j) dims += std::string(w[j]);
        std::size_t p = 0;
        while (p < dims.size() && dims[p] == '[') {
            const auto q = dims.find(']', p);
            if (q == std::string::npos) return at_line(line, "unterminated '[' in .shared " + v.name);
            std::int64_t d = 0;
            if (q == p + 1) unsized = true;
            else if (!to_int(dims.substr(p + 1, q - p - 1), d) || d < 0 || d > (std::int64_t{1} << 32))
                return at_line(line, "bad dimension in .shared " + v.name);
            else bytes = bytes * d > (std::int64_t{1} << 40) ? (std::int64_t{1} << 40) : bytes * d;
            p = q + 1;
        }
        v.bytes = unsized ? 0 : bytes;
        if (v.align == 0) v.align = static_cast<int>(elem);
        if (into.size() < 100'000) into.push_back(std::move(v));
        return {};
    }
};

// [SECTION] Entry headers
// ".param .u64 .ptr .global .align 16 name" or ".param .align 8 .b8 name[16]"
std::string read_param(std::string_view text, int line, ptx::Param& p) {
    const auto w = words(text);
    std::size_t i = 0;
    for (; i < w.size() && w[i].front() == '.'; ++i) {
        const std::string_view a = w[i].substr(1);
        if (a == "align") {
            std::int64_t v = 0;
            if (i + 1 >= w.size() || !to_int(w[i + 1], v) || v < 1 || v > (1 << 20)) return at_line(line, "bad .align in a .param");
            p.align = static_cast<int>(v);
            ++i;
        } else if (a == "ptr") {
            p.pointer = true;
        } else if (ptx::is_type_name(a)) {
            p.type = std::string(a);
        }
    }
    if (i >= w.size()) return at_line(line, "a .param without a name");
    std::string_view n = w[i];
    const auto br = n.find('[');
    p.name = std::string(n.substr(0, br));
    std::int64_t count = 1;
    if (br != std::string_view::npos) {
        const auto q = n.find(']', br);
        if (q == std::string_view::npos || !to_int(n.substr(br + 1, q - br - 1), count) || count < 0 || count > (1 << 24))
            return at_line(line, "bad array size in .param " + p.name);
    }
    p.size = ptx::type_bytes(p.type) * static_cast<int>(count);
    return {};
}

// "[.visible|.weak|.extern] .entry|.func [(ret)] name (params) [.maxntid x, y, z ...]" before '{'.
std::string read_header(std::string_view h, int line, ptx::Entry& e) {
    const auto kw = h.find(".entry");
    const auto kf = h.find(".func");
    e.is_kernel = kw != std::string_view::npos && (kf == std::string_view::npos || kw < kf);
    e.visible = h.find(".visible") != std::string_view::npos;
    e.decl_line = line;
    std::size_t i = (e.is_kernel ? kw + 6 : kf + 5);
    auto skip_space = [&] {
        while (i < h.size() && std::isspace(static_cast<unsigned char>(h[i]))) ++i;
    };
    skip_space();
    if (!e.is_kernel && i < h.size() && h[i] == '(') {  // .func (.param .b32 retval) name
        const auto close = h.find(')', i);
        if (close == std::string_view::npos) return at_line(line, "unterminated '(' in a .func header");
        i = close + 1;
        skip_space();
    }
    const std::size_t nb = i;
    while (i < h.size() && ident_char(h[i])) ++i;
    if (i == nb) return at_line(line, "an entry without a name");
    e.name = std::string(h.substr(nb, i - nb));
    skip_space();
    std::string_view tail = h.substr(i);
    if (i < h.size() && h[i] == '(') {
        const auto close = h.find(')', i);
        if (close == std::string_view::npos) return at_line(line, "unterminated '(' in the parameters of " + e.name);
        std::string_view list = h.substr(i + 1, close - i - 1);
        std::size_t s = 0;
        while (s <= list.size()) {
            auto c = list.find(',', s);
            if (c == std::string_view::npos) c = list.size();
            const auto part = trim(list.substr(s, c - s));
            if (!part.empty()) {
                ptx::Param p;
                if (auto err = read_param(part, line, p); !err.empty()) return err;
                if (e.params.size() >= 4096) return at_line(line, "more than 4096 parameters");
                e.params.push_back(std::move(p));
            }
            s = c + 1;
        }
        tail = h.substr(close + 1);
    }
    // PTX ISA, "Performance-Tuning Directives": .maxntid / .reqntid nx[, ny[, nz]].
    const auto w = words(tail);
    for (std::size_t k = 0; k < w.size(); ++k) {
        if (w[k] != ".maxntid" && w[k] != ".reqntid") continue;
        for (int d = 0; d < 3 && k + 1 + static_cast<std::size_t>(d) < w.size(); ++d) {
            std::int64_t v = 0;
            if (!to_int(w[k + 1 + static_cast<std::size_t>(d)], v) || v < 0 || v > 1 << 20) break;
            e.maxntid[d] = static_cast<int>(v);
        }
    }
    return {};
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

Result<ptx::Program> read_ptx(std::string_view text, const PtxLimits& lim) {
    using R = Result<ptx::Program>;
    if (text.size() > lim.max_bytes)
        return R::fail("PTX text of " + std::to_string(text.size()) + " bytes is over the limit of " + std::to_string(lim.max_bytes));
    std::string clean;
    if (auto err = strip_comments(text, clean); !err.empty()) return R::fail(err);
    Reader rd{lim, {}, 0, {}, {}, {}};
    const std::string_view s = clean;

    // [SECTION] The statement loop
    std::size_t i = 0;
    int line = 1;
    int depth = 0;  // 0 = module scope; 1 = a body; more = nested scopes
    bool in_entry = false;
    ptx::Entry cur;
    auto advance = [&](std::size_t to) {
        for (; i < to && i < s.size(); ++i)
            if (s[i] == '\n') ++line;
    };
    while (true) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) advance(i + 1);
        if (i >= s.size()) break;
        const int start_line = line;
        const char c = s[i];
        if (c == '}') {
            advance(i + 1);
            if (depth == 0) return R::fail(at_line(start_line, "'}' without an open '{'"));
            if (--depth == 0 && in_entry) {
                if (rd.prog.entries.size() >= lim.max_entries) return R::fail(at_line(start_line, "too many entries"));
                rd.prog.entries.push_back(std::move(cur));
                cur = {};
                in_entry = false;
            }
            continue;
        }
        if (c == '{') {
            advance(i + 1);
            if (depth == 0) return R::fail(at_line(start_line, "'{' outside an entry"));
            if (++depth > lim.max_scope_depth) return R::fail(at_line(start_line, "scopes nested too deep"));
            continue;
        }
        // Line directives end at the end of their line.
        std::string_view rest = s.substr(i);
        std::size_t eol = rest.find('\n');
        if (eol == std::string_view::npos) eol = rest.size();
        bool handled = false;
        for (std::string_view d : {".version", ".target", ".address_size", ".loc", ".file"}) {
            if (!starts_with(rest, d) || rest.size() == d.size() || !std::isspace(static_cast<unsigned char>(rest[d.size()]))) continue;
            std::string_view body = rest.substr(d.size(), eol - d.size());
            if (const auto semi = body.find(';'); semi != std::string_view::npos) body = body.substr(0, semi);
            std::string err;
            if (d == ".loc") err = rd.read_loc(body, start_line);
            else if (d == ".file") err = rd.read_file(body, start_line);
            else if (d == ".version") rd.prog.version = std::string(trim(body));
            else if (d == ".target") {
                const auto w = words(body);
                if (!w.empty()) rd.prog.target = std::string(w[0]);
            } else {
                std::int64_t v = 0;
                if (!to_int(trim(body), v) || (v != 32 && v != 64)) err = at_line(start_line, ".address_size must be 32 or 64");
                else rd.prog.address_size = static_cast<int>(v);
            }
            if (!err.empty()) return R::fail(err);
            advance(i + eol);
            handled = true;
            break;
        }
        if (handled) continue;

        // A label "name:" (not "a::b") inside a body.
        if (depth > 0 && ident_start(c)) {
            std::size_t e = 0;
            while (e < rest.size() && ident_char(rest[e])) ++e;
            std::size_t k = e;
            while (k < rest.size() && (rest[k] == ' ' || rest[k] == '\t')) ++k;
            if (e > 0 && k < rest.size() && rest[k] == ':' && (k + 1 >= rest.size() || rest[k + 1] != ':')) {
                if (cur.labels.size() < lim.max_instructions)
                    cur.labels.emplace_back(std::string(rest.substr(0, e)), static_cast<int>(cur.instructions.size()));
                advance(i + k + 1);
                continue;
            }
        }

        // A statement: up to ';' outside brackets, or a header's '{'.
        std::size_t j = 0;
        int br = 0;
        bool header = false, has_eq = false;
        const bool module_scope = depth == 0;
        for (; j < rest.size(); ++j) {
            const char x = rest[j];
            if (x == '"') {
                const auto q = rest.find('"', j + 1);
                if (q == std::string_view::npos) return R::fail(at_line(start_line, "unterminated string"));
                j = q;
                continue;
            }
            if (x == '=') has_eq = true;
            if (x == '(' || x == '[') ++br;
            else if (x == ')' || x == ']') --br;
            else if (x == '{') {
                if (br == 0 && module_scope && !has_eq) {
                    header = true;
                    break;
                }
                ++br;
            } else if (x == '}') {
                if (--br < 0) break;
            } else if (x == ';' && br == 0) {
                break;
            }
            if (j > lim.max_statement)
                return R::fail(at_line(start_line, "statement longer than " + std::to_string(lim.max_statement) + " bytes"));
        }
        if (j >= rest.size() || br < 0) return R::fail(at_line(start_line, "statement not ended by ';' (truncated text?)"));
        const std::string_view stmt = trim(rest.substr(0, j));
        advance(i + j + 1);  // past ';' or '{'

        if (header) {
            if (starts_with(stmt, ".section")) {  // debug sections: skipped whole
                int d = 1;
                while (i < s.size() && d > 0) {
                    if (s[i] == '{') ++d;
                    else if (s[i] == '}') --d;
                    advance(i + 1);
                }
                if (d > 0) return R::fail(at_line(start_line, "unterminated .section"));
                continue;
            }
            if (stmt.find(".entry") == std::string_view::npos && stmt.find(".func") == std::string_view::npos)
                return R::fail(at_line(start_line, "'{' after something that is not an .entry or .func header"));
            cur = {};
            if (auto err = read_header(stmt, start_line, cur); !err.empty()) return R::fail(err);
            rd.loc = rd.outer = {};
            rd.outer_of.clear();
            in_entry = true;
            depth = 1;
            continue;
        }
        if (stmt.empty()) continue;
        const auto w0 = stmt.substr(0, stmt.find_first_of(" \t\r\n"));
        if (module_scope) {
            // Module-scope declarations: .shared variables matter; the rest is listed.
            const bool ext = stmt.find(".extern") != std::string_view::npos;
            if (stmt.find(".shared") != std::string_view::npos && stmt.find(".func") == std::string_view::npos) {
                auto body = stmt.substr(stmt.find(".shared") + 7);
                if (auto err = rd.read_shared(body, start_line, ext, rd.prog.shared); !err.empty()) return R::fail(err);
            } else if (stmt.find(".func") == std::string_view::npos) {
                rd.diag(start_line, "skipped module directive " + std::string(w0.substr(0, 40)));
            }
            continue;
        }
        if (w0 == ".reg") {
            if (auto err = rd.read_reg(stmt.substr(4), start_line, cur); !err.empty()) return R::fail(err);
        } else if (w0 == ".shared" || (w0 == ".extern" && stmt.find(".shared") != std::string_view::npos)) {
            auto body = stmt.substr(stmt.find(".shared") + 7);
            if (auto err = rd.read_shared(body, start_line, w0 == ".extern", cur.shared); !err.empty()) return R::fail(err);
        } else if (w0 == ".pragma") {
            // hints ("nounroll"): no effect on addresses
        } else if (!w0.empty() && w0.front() == '.') {
            rd.diag(start_line, "skipped directive " + std::string(w0.substr(0, 40)) + " in " + cur.name);
        } else {
            if (++rd.instructions > lim.max_instructions) return R::fail(at_line(start_line, "more instructions than the limit"));
            ptx::Instruction in;
            if (auto err = parse_instruction(stmt, lim, in); !err.empty()) return R::fail(at_line(start_line, err));
            // The line of the opcode, not of a blank line before it.
            in.ptx_line = start_line;
            in.loc = rd.loc;
            in.outer = rd.outer;
            cur.instructions.push_back(std::move(in));
        }
    }
    if (depth != 0)
        return R::fail(at_line(line, "the text ends inside " + (cur.name.empty() ? std::string("a body") : cur.name) + " (truncated?)"));
    return R::ok(std::move(rd.prog));
}

}  // namespace occ::io
