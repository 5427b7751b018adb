// ptxas_log.cpp — reads what `nvcc -Xptxas -v`, nvrtc, the JIT linker and `cuobjdump
// --dump-resource-usage` print into PtxasKernel records (occ/io/ptxas.hpp): which line belongs to
// which compilation. One line's syntax is read by ptxas_lines.cpp; names are demangled by
// ptxas_demangle.cpp; the "ptxas" request kind is in ptxas_request.cpp.
//
// [SECTION] index: records and their open lines · notes and warnings · resource lines · the loop
#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "occ/device.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/utf8.hpp"
#include "occ/text.hpp"
#include "ptxas_lines.hpp"

namespace occ::io {
namespace {

using namespace ptxas_detail;

constexpr std::size_t kMaxLogDiagnostics = 50;
constexpr std::size_t kMaxKernelDiagnostics = 20;
constexpr std::size_t kMaxText = 400;      // bytes of one quoted line or message
constexpr std::size_t kMaxMessage = 1200;  // a warning wrapped over several lines, joined
constexpr std::size_t kWrapWidth = 60;     // a line this long that stops mid-sentence was wrapped

constexpr long long kNone = -1;

void set_arch(PtxasKernel& k, std::string_view arch) {
    k.arch = std::string(arch);
    int ma = 0, mi = 0;
    if (parse_cc(arch, ma, mi)) {
        k.cc_major = ma;
        k.cc_minor = mi;
    }
}

bool ends_with_word(std::string_view s, std::string_view w) {
    if (s.size() < w.size() || s.substr(s.size() - w.size()) != w) return false;
    return s.size() == w.size() || s[s.size() - w.size() - 1] == ' ';
}

// Build tools' own lines, which never continue a ptxas message.
bool tool_output(std::string_view line) {
    if (line.empty() || line.front() == '[' || line.front() == '#') return true;
    for (std::string_view p : {"make", "ninja", "FAILED", "nvcc", "gcc", "g++", "clang", "cl ", "Building", "Linking"})
        if (starts_with(line, p)) return true;
    for (std::string_view p : {": warning:", ": error:", ": note:", " In function", "Error "})
        if (line.find(p) != std::string_view::npos) return true;
    return false;
}

// The number right before `phrase` in text ("..., 292 bytes spill stores").
std::optional<std::int64_t> number_before(std::string_view text, std::string_view phrase) {
    const auto p = text.find(phrase);
    if (p == std::string_view::npos) return std::nullopt;
    std::size_t e = p;
    while (e > 0 && text[e - 1] == ' ') --e;
    std::size_t b = e;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(text[b - 1]))) --b;
    if (b == e) return std::nullopt;
    return leading_number(text.substr(b, e - b));
}

struct Message {
    std::string text;  // from the tool's tag on
    TagKind kind = TagKind::info;
    std::size_t last_line = 0;  // length of the last physical line, to tell a wrap
    int line = 0;               // where it starts in the log
};

// "Registers are spilled to local memory in function 'f', N bytes spill stores, M bytes spill loads"
bool spill_warning(std::string_view text) { return text.find("Registers are spilled to local memory") != std::string_view::npos; }

// [SECTION] records and their open lines
struct Parser {
    PtxasLog log;
    int line_no = 0;
    std::string ptx_arch;           // the ptxas run's architecture ("Compiling entry function ... for")
    std::string cu_arch;            // cuobjdump: the current "arch = " section
    long long awaiting = kNone;     // ptxas entry whose "Used" line has not come
    long long props = kNone;        // record whose stack-frame line is expected
    long long cuobj = kNone;        // cuobjdump function whose resource line is expected
    long long link = kNone;         // record the next JIT-linker "used" line belongs to
    bool link_merge = false;        // `link` is a ptxas record that the linker reports again
    long long used_target = kNone;  // a "Used" line that may continue on the next line
    std::optional<std::string> used_pending;
    Resources used;
    std::optional<Message> msg;  // a warning or note that may continue on the next line
    struct PendingNote {
        std::string function, text;
        bool info = false;
        int line = 0;
    };
    std::vector<PendingNote> pending_notes;  // notes printed before the record they name

    PtxasKernel& at(long long i) { return log.kernels[static_cast<std::size_t>(i)]; }

    // The record an unknown line belongs to, if one is still expecting lines.
    long long open() const {
        for (long long i : {props, cuobj, link, awaiting})
            if (i != kNone) return i;
        return kNone;
    }

    void kernel_note(PtxasKernel& k, std::string_view text) {
        if (k.diagnostics.size() < kMaxKernelDiagnostics) k.diagnostics.push_back(utf8_prefix(text, kMaxText));
    }
    void log_note(std::string_view text) {
        if (log.diagnostics.size() < kMaxLogDiagnostics) log.diagnostics.push_back(utf8_prefix(text, kMaxText));
    }

    void missing_used(long long i) {
        if (i != kNone) kernel_note(at(i), "the log has no resource line (\"Used N registers, ...\") for this compilation");
    }

    long long add_record(std::string_view name, bool entry, std::string_view arch, const char* format) {
        PtxasKernel k;
        k.mangled = std::string(name);
        const std::string d = demangle(name);
        k.name = d.empty() ? k.mangled : d;
        k.entry = entry;
        k.format = format;
        k.line = line_no;
        set_arch(k, arch);
        log.kernels.push_back(std::move(k));
        const long long idx = static_cast<long long>(log.kernels.size()) - 1;
        // Notes printed before the record ("Overriding maximum register limit ... for 'k'").
        auto it = pending_notes.begin();
        while (it != pending_notes.end()) {
            if (it->function == name) {
                attach_note(idx, it->text);
                it = pending_notes.erase(it);
            } else {
                ++it;
            }
        }
        return idx;
    }

    void start_compilation(std::string_view name, std::string_view arch, bool entry) {
        missing_used(awaiting);
        ptx_arch = std::string(arch);
        awaiting = add_record(name, entry, arch, "ptxas");
        props = cuobj = link = kNone;
    }

    // [SECTION] notes and warnings
    void attach_note(long long idx, const std::string& text) {
        PtxasKernel& k = at(idx);
        kernel_note(k, text);
        // "Registers are spilled to local memory in function 'f', 8 bytes spill stores, 8 bytes spill
        // loads": figures the log gives, used when the properties line does not.
        if (text.find("spilled") != std::string::npos) {
            if (!k.spill_stores) k.spill_stores = number_before(text, "bytes spill stores");
            if (!k.spill_loads) k.spill_loads = number_before(text, "bytes spill loads");
        }
    }

    void flush_message() {
        if (!msg) return;
        const Message m = std::move(*msg);
        msg.reset();
        if (m.kind != TagKind::info) log_note(m.text);
        if (const auto at = m.text.find("'setmaxnreg' ignored"); at != std::string::npos && log.setmaxnreg_ignored.size() < 8) {
            std::string reason = std::string(trim(std::string_view(m.text).substr(at + 20)));
            while (!reason.empty() && (reason.front() == ';' || reason.front() == ' ')) reason.erase(0, 1);
            if (!reason.empty() && reason.back() == '.') reason.pop_back();
            if (std::find(log.setmaxnreg_ignored.begin(), log.setmaxnreg_ignored.end(), reason) == log.setmaxnreg_ignored.end())
                log.setmaxnreg_ignored.push_back(reason);
        }
        const std::string_view fn = named_function(m.text);
        if (fn.empty()) {
            if (m.kind == TagKind::info) log_note(m.text);
            return;
        }
        // ptxas reads these before it compiles anything: they are about the next record of that name.
        const std::string_view text = m.text;
        const std::string_view what = trim(text.substr(std::min(text.find(':'), text.size() - 1) + 1));
        const bool before = starts_with(what, "Overriding") || starts_with(what, "Value of threads per SM");
        if (!before) {
            const long long last = static_cast<long long>(log.kernels.size()) - 1;
            for (long long i : {open(), awaiting, last})
                if (i != kNone && at(i).mangled == fn) return attach_note(i, m.text);
        }
        pending_notes.push_back({std::string(fn), m.text, m.kind == TagKind::info, m.line});
    }

    bool continues_message(std::string_view line) const {
        if (!msg || msg->text.size() > kMaxMessage || tool_output(line)) return false;
        const std::string_view t = trim(msg->text);
        if (t.empty()) return false;
        const char c = t.back();
        if (c == ',' || ends_with_word(t, "function") || ends_with_word(t, "entry") || ends_with_word(t, "for")) return true;
        return msg->last_line >= kWrapWidth && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    }

    // [SECTION] resource lines
    void apply(PtxasKernel& k, const Resources& r, bool from_used_line) {
        for_each_figure([&](auto from, auto to) {
            if (r.*from) k.*to = r.*from;
        });
        // ptxas lists shared memory only when a kernel has some: a Used line read in full without it
        // says 0. A line with items not read may have lost it.
        if (!r.smem && from_used_line && r.unread.empty()) k.smem_static = 0;
        for (const auto& c : r.cmem) k.cmem.push_back(c);
        for (const std::string& u : r.unread) kernel_note(k, "not read: \"" + u + "\"");
    }

    void finish_used() {
        if (used_target == kNone) return;
        if (used_pending) {
            if (used_pending->empty()) kernel_note(at(used_target), "the resource line ends with a comma and its continuation is missing");
            else used.unread.push_back(*used_pending);
        }
        apply(at(used_target), used, true);
        if (used_target == awaiting) awaiting = kNone;
        if (used_target == props) props = kNone;
        used_target = kNone;
        used_pending.reset();
        used = Resources{};
    }

    // A JIT-linker or nvlink report of a function ptxas reported earlier: after linking, its
    // figures are the ones that run; a difference is noted.
    void merge_link(PtxasKernel& k, const Resources& r) {
        std::string was;
        auto differs = [&](const auto& before, const auto& after, const char* what) {
            if (before && after && *before != *after) join_into(was, ", ", std::to_string(*before) + " " + what);
        };
        differs(k.registers, r.registers, "registers");
        differs(k.stack_frame, r.stack, "bytes stack");
        differs(k.smem_static, r.smem, "bytes smem");
        if (!was.empty()) kernel_note(k, "figures after linking (the JIT linker's report); ptxas reported " + was + " before linking");
        Resources copy = r;
        copy.cmem.clear();  // the linker repeats the banks ptxas listed
        if (k.cmem.empty()) copy.cmem = r.cmem;
        apply(k, copy, true);
    }

    void unknown(std::string_view line) {
        const long long o = open();
        if (o == kNone) {
            ++log.skipped_lines;
            return;
        }
        ++log.unknown_lines;
        kernel_note(at(o), "line " + std::to_string(line_no) + " not understood: " + std::string(line));
    }

    // A line ptxas prints inside a record, with no record to belong to: shown, never given to another.
    void orphan(std::string_view line, const char* what) {
        ++log.unknown_lines;
        log_note(std::string(what) + " (line " + std::to_string(line_no) + "): " + std::string(line));
    }

    void tagged(std::string_view line, const Tag& t);
    void untagged(std::string_view line);
    void finish();
};

// The name after "Function properties for", without the quotes and colon the linkers add.
std::string_view function_name(std::string_view rest) {
    std::string_view name = trim(rest.substr(std::min<std::size_t>(rest.size(), 23)));
    if (!name.empty() && name.back() == ':') name = trim(name.substr(0, name.size() - 1));
    std::size_t end = 0;
    const auto q = quoted(name, 0, &end);
    if (q && !q->empty() && q->data() - name.data() <= 3 && trim(name.substr(end)).empty()) return *q;
    return name;
}

// [SECTION] the loop
// A line with a tool's tag; counted as recognised unless it was an orphan.
void Parser::tagged(std::string_view line, const Tag& t) {
    const std::string_view rest = t.rest;
    if (t.kind == TagKind::warning || t.kind == TagKind::error) {
        msg = Message{std::string(line.substr(t.pos)), t.kind, line.size(), line_no};
        return;
    }
    if (rest.find("bytes gmem") != std::string_view::npos && leading_number(rest)) {
        log.gmem = leading_number(rest);
        ptx_arch.clear();  // each ptxas run opens with its gmem line
        return;
    }
    const bool linker = t.kind == TagKind::link_info;
    if (!linker && (starts_with(rest, "Compiling entry function") || starts_with(rest, "Compiling function"))) {
        std::size_t end = 0;
        const auto name = quoted(rest, 0, &end);
        if (!name || name->empty()) {
            missing_used(awaiting);
            awaiting = props = kNone;
            return orphan(line, "a \"Compiling entry function\" line without a quoted name");
        }
        std::string_view arch;
        const auto for_pos = rest.find(" for ", end - 1);
        if (for_pos != std::string_view::npos)
            if (auto a = quoted(rest, for_pos)) arch = *a;
        return start_compilation(*name, arch, starts_with(rest, "Compiling entry"));
    }
    if (starts_with(rest, "Function properties for")) {
        const std::string_view name = function_name(rest);
        if (name.empty()) {
            return orphan(line, "a \"Function properties\" line without a name");
        }
        if (linker) {
            link = kNone;
            for (long long i = static_cast<long long>(log.kernels.size()) - 1; i >= 0 && link == kNone; --i)
                if (at(i).mangled == name && at(i).format == "ptxas") link = i;
            link_merge = link != kNone;
            if (link == kNone) link = add_record(name, true, "", t.nvlink ? "nvlink" : "culink");
            return;
        }
        if (awaiting != kNone && at(awaiting).mangled == name && !at(awaiting).stack_frame) {
            props = awaiting;
        } else {
            props = add_record(name, false, ptx_arch, "ptxas");
        }
        return;
    }
    if (starts_with(rest, "Used ") || starts_with(rest, "used ")) {
        if (linker) {
            if (link == kNone) return orphan(line, "a linker resource line with no function before it");
            Resources r;
            if (auto tail = read_used_items(rest, r)) r.unread.push_back(*tail);
            if (link_merge) merge_link(at(link), r);
            else apply(at(link), r, true);
            link = kNone;
            return;
        }
        const long long target = awaiting != kNone ? awaiting : props;
        if (target == kNone) {
            return orphan(line, "a resource line (\"Used ...\") with no function before it");
        }
        used = Resources{};
        used_target = target;
        used_pending = read_used_items(rest, used);
        if (!used_pending) finish_used();
        return;
    }
    if (starts_with(rest, "Compile time")) return;
    // Other notes ("(C7511) Potential Performance Loss ... in the function 'k'", "Overriding
    // maximum register limit 256 for 'k' ...") go to the function they name.
    msg = Message{std::string(line.substr(t.pos)), TagKind::info, line.size(), line_no};
}

void Parser::untagged(std::string_view line) {
    if (continues_message(line) && line.find("bytes stack frame") == std::string_view::npos && !starts_with(line, "REG:")) {
        msg->text += " " + std::string(line);
        msg->last_line = line.size();
        ++log.recognised_lines;
        return;
    }
    flush_message();
    StackLine s;
    if (read_stack_line(line, s)) {
        long long target = props;
        if (target == kNone && awaiting != kNone && !at(awaiting).stack_frame) target = awaiting;
        if (target == kNone) return orphan(line, "a stack-frame line with no function before it");
        PtxasKernel& k = at(target);
        k.stack_frame = s.stack_frame;
        if (s.spill_stores) k.spill_stores = s.spill_stores;
        if (s.spill_loads) k.spill_loads = s.spill_loads;
        for (const std::string& u : s.unread) kernel_note(k, "not read: \"" + u + "\"");
        if (target == props) props = kNone;
        ++log.recognised_lines;
        return;
    }
    // cuobjdump --dump-resource-usage
    if (auto h = cuobjdump_header(line)) {
        if (h->first == "arch") cu_arch = std::string(h->second);
        cuobj = kNone;
        ++log.recognised_lines;
        return;
    }
    if (starts_with(line, "Fatbin ") || line.find_first_not_of('=') == std::string_view::npos || line == "Resource usage:" ||
        line == "Common:" || line == "compressed") {
        cuobj = kNone;
        ++log.recognised_lines;
        return;
    }
    if (starts_with(line, "GLOBAL:") && leading_number(line.substr(7))) {
        log.gmem = leading_number(line.substr(7));
        ++log.recognised_lines;
        return;
    }
    if (starts_with(line, "Function ") && line.back() == ':' && line.size() > 10) {
        const std::string_view name = trim(line.substr(9, line.size() - 10));
        if (!name.empty() && name.find(' ') == std::string_view::npos) {
            cuobj = add_record(name, true, cu_arch, "cuobjdump");
            ++log.recognised_lines;
            return;
        }
    }
    if (cuobj != kNone && starts_with(line, "REG:")) {
        Resources r;
        read_cuobjdump_usage(line, r);
        PtxasKernel& k = at(cuobj);
        apply(k, r, false);
        // A kernel's constant bank 0 holds its parameters and launch constants; device functions
        // (listed the same way) have none.
        k.entry = std::any_of(r.cmem.begin(), r.cmem.end(), [](const auto& c) { return c.first == 0; });
        cuobj = kNone;
        ++log.recognised_lines;
        return;
    }
    unknown(line);
}

void Parser::finish() {
    finish_used();
    flush_message();
    missing_used(awaiting);
    // Notes whose function never came after them belong to its last record, else to the log
    // (warnings and errors are there already). A spill warning for a function the log has no record
    // of (XLA and JAX print only these, one per compilation: autotuning compiles one name several
    // times) is a record of its own, with the spills it gives and nothing else.
    bool spill_records = false;
    const std::vector<PendingNote> notes = std::move(pending_notes);  // add_record below must not take them
    pending_notes.clear();
    for (const PendingNote& n : notes) {
        long long last = kNone;
        for (long long i = 0; i < static_cast<long long>(log.kernels.size()); ++i)
            if (at(i).mangled == n.function && at(i).format != kSpillWarningFormat) last = i;
        if (last != kNone) {
            attach_note(last, n.text);
        } else if (spill_warning(n.text)) {
            line_no = n.line;
            const long long i = add_record(n.function, true, "", kSpillWarningFormat);
            attach_note(i, n.text);
            spill_records = true;
        } else if (n.info) {
            log_note(n.text);
        }
    }
    // In log order with the records ptxas printed in full.
    if (spill_records)
        std::stable_sort(log.kernels.begin(), log.kernels.end(),
                         [](const PtxasKernel& a, const PtxasKernel& b) { return a.line < b.line; });
    // Occurrence numbers: the n-th compilation of a function for an architecture.
    std::map<std::tuple<std::string, std::string, bool>, int> seen;
    for (PtxasKernel& k : log.kernels) k.occurrence = ++seen[{k.mangled, k.arch, k.entry}];
    for (PtxasKernel& k : log.kernels) k.occurrences = seen[{k.mangled, k.arch, k.entry}];
    // Names and arches are quoted in JSON answers: keep them valid UTF-8 even when the log is not
    // (or the demangler split a multi-byte character).
    for (PtxasKernel& k : log.kernels) {
        k.name = make_valid_utf8(k.name);
        k.mangled = make_valid_utf8(k.mangled);
        k.arch = make_valid_utf8(k.arch);
        for (std::string& d : k.diagnostics) d = make_valid_utf8(d);
    }
    for (std::string& d : log.diagnostics) d = make_valid_utf8(d);
}

}  // namespace

PtxasLog parse_ptxas_log(std::string_view text) {
    Parser p;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view line = trim(text.substr(pos, nl - pos));
        pos = nl + 1;
        ++p.line_no;
        ++p.log.lines;
        if (line.empty()) {
            p.finish_used();
            p.flush_message();
            continue;
        }
        const Tag t = find_tag(line);
        if (p.used_pending && t.kind == TagKind::none) {
            // The rest of a wrapped "Used" line: "56 bytes cumulative" + "stack size".
            Resources more;
            const std::string joined = p.used_pending->empty() ? std::string(line) : *p.used_pending + " " + std::string(line);
            auto tail = read_used_items(joined, more);
            if (more.unread.empty() && (!tail || *tail != joined)) {
                merge(p.used, more);
                p.used_pending = tail;
                ++p.log.recognised_lines;
                if (!tail) p.finish_used();
                continue;
            }
        }
        p.finish_used();
        if (t.kind != TagKind::none) {
            p.flush_message();
            const int unknown = p.log.unknown_lines;
            p.tagged(line, t);
            if (p.log.unknown_lines == unknown) ++p.log.recognised_lines;
        } else {
            p.untagged(line);
        }
    }
    p.finish();
    return std::move(p.log);
}

}  // namespace occ::io

namespace occ::io {

// The causes ptxas 13.0 prints (its C7504-C7508 messages; public reports: NVIDIA/cutlass #2452, #3406,
// NVIDIA/Fuser #3972) and what lifts each.
std::string setmaxnreg_advice(std::string_view reason) {
    if (reason.find("register count at entry") != std::string_view::npos)
        return "ptxas needs the entry register count: give __launch_bounds__(threads, minBlocksPerSM) with a minimum block count "
               "(.minnctapersm), or -maxrregcount / __maxnreg__; .maxntid alone is not enough";
    if (reason.find("compilation units") != std::string_view::npos)
        return "relocatable device code (-rdc) hides the register count from callers: build the kernel without -rdc";
    if (reason.find("'extern' call") != std::string_view::npos)
        return "the kernel calls an extern device function: inline it or compile it in the same unit";
    if (reason.find("debugging") != std::string_view::npos) return "a -G (device debug) build: setmaxnreg applies only without -G";
    if (reason.find("minimum register") != std::string_view::npos)
        return "a warpgroup's setmaxnreg.dec goes below what its code needs: raise that count";
    return "ptxas dropped setmaxnreg: every warp keeps its launch register count";
}

}  // namespace occ::io
