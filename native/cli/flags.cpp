// flags.cpp — CLI flags derived from the request descriptions (occ/io/schema.hpp): one flag per
// field, named "--" + key with '_' turned into '-', and the JSON request a --batch line would carry.
#include <fstream>
#include <sstream>

#include "cli.hpp"
#include "occ/io/size.hpp"

namespace occ::cli {
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

// "0xffff", "65535" -> as given (the reader checks it); "0-15,20,24-31" -> a mask number.
Result<json> lanes_value(const std::string& key, const std::string& text) {
    const std::string t = trim(text);
    const bool list = t.find(',') != std::string::npos || (t.find('-') != std::string::npos && t.rfind("0x", 0) != 0);
    if (!list) return Result<json>::ok(t);
    std::uint64_t mask = 0;
    for (const std::string& part : split(t, ',')) {
        long long lo = 0, hi = 0;
        const auto dash = part.find('-');
        const bool ok = dash == std::string::npos ? parse_long(part, lo) && (hi = lo, true)
                                                  : parse_long(part.substr(0, dash), lo) && parse_long(part.substr(dash + 1), hi);
        // Lanes 32..63: an AMD wave64 (the request reader refuses them for a 32-lane warp).
        if (!ok || lo < 0 || hi > 63 || lo > hi)
            return Result<json>::fail(
                key + ": must be a mask (0xffff) or lane ranges 0..31 (0..63 for an AMD wave64) like 0-15,20, got \"" + text + "\"");
        for (long long l = lo; l <= hi; ++l) mask |= 1ull << l;
    }
    return Result<json>::ok(mask);
}

// "0.5ms", "120us", "2e-3s", "1.5" (milliseconds) -> milliseconds.
Result<json> duration_ms(const std::string& key, const std::string& text) {
    std::size_t pos = 0;
    double v = 0;
    try {
        v = std::stod(text, &pos);
    } catch (...) {
        return Result<json>::fail(key + ": expected a time such as 0.5ms, 120us or 0.002s, got \"" + text + "\"");
    }
    const std::string unit = text.substr(pos);
    if (unit.empty() || unit == "ms") return Result<json>::ok(v);
    if (unit == "us" || unit == "\u00b5s") return Result<json>::ok(v / 1e3);
    if (unit == "ns") return Result<json>::ok(v / 1e6);
    if (unit == "s") return Result<json>::ok(v * 1e3);
    return Result<json>::fail(key + ": unknown unit \"" + unit + "\" (use s, ms, us or ns)");
}

Result<json> device_value(const std::string& key, const std::string& arg) {
    std::string text = arg;
    if (text.find('{') == std::string::npos) {
        std::ifstream f(arg);
        if (!f) return Result<json>::fail(key + ": cannot read file \"" + arg + "\" (give a JSON file or inline JSON)");
        std::stringstream ss;
        ss << f.rdbuf();
        text = ss.str();
    }
    json d = json::parse(text, nullptr, false);
    if (d.is_discarded()) return Result<json>::fail(key + ": not valid JSON");
    return Result<json>::ok(d);
}

// The value of one flag as the JSON reader expects it.
Result<json> value_of(const io::FieldSpec& s, const std::vector<std::string>& args) {
    const std::string key(s.key);
    const std::string& a = args.back();
    switch (s.type) {
        case io::FieldType::boolean: return Result<json>::ok(true);
        case io::FieldType::mask: return lanes_value(key, a);
        case io::FieldType::duration: return duration_ms(key, a);
        case io::FieldType::device: return device_value(key, a);
        case io::FieldType::dims: {
            json b = json::array();
            for (const std::string& part : split(a, a.find('x') != std::string::npos ? 'x' : ',')) {
                long long v = 0;
                if (!parse_long(part, v))
                    return Result<json>::fail(key + ": must be X[,Y[,Z]] with integers, e.g. 32,8 or 16x16 (got \"" + a + "\")");
                b.push_back(v);
            }
            return Result<json>::ok(b);
        }
        case io::FieldType::addresses: {
            json v = json::array();
            for (const std::string& part : split(a, ',')) {
                if (part == "-" || part == "null" || part == "_" || part == ".") v.push_back(nullptr);
                else v.push_back(part);
            }
            return Result<json>::ok(v);
        }
        case io::FieldType::list: {
            json v = json::array();
            for (const std::string& arg : args)
                for (const std::string& part : split(arg, ',')) {
                    long long n = 0;
                    if (s.hi > 0 && parse_long(part, n)) v.push_back(n);  // a list of integers (gpc_sms)
                    else v.push_back(part);
                }
            return Result<json>::ok(v);
        }
        default: return Result<json>::ok(a);  // integers, sizes, numbers, choices, text: the reader parses strings
    }
}

}  // namespace

bool parse_long(const std::string& s, long long& v) {
    std::int64_t i = 0;
    if (!io::parse_integer(s, i)) return false;
    v = i;
    return true;
}

void add_request_flags(CLI::App* cmd, const io::KindSpec& kind, RequestFlags& flags) {
    flags.kind = &kind;
    for (const io::FieldSpec* s : kind.fields) {
        if (s->no_flag) continue;
        std::string names = io::flag_name(s->key);
        if (s->short_flag) names += std::string(",-") + s->short_flag;
        std::string help(s->help);
        if (s->type != io::FieldType::boolean && s->def != "-" && !s->def.empty() && help.find('[') == std::string::npos)
            help += " [" + std::string(s->def) + "]";
        std::vector<std::string>& slot = flags.given[std::string(s->key)];
        if (s->type == io::FieldType::boolean) {
            cmd->add_flag_callback(
                names, [&slot] { slot = {"true"}; }, help);
        } else {
            auto* opt = cmd->add_option(names, slot, help);
            if (s->type == io::FieldType::list) {
                opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
            } else {
                opt->expected(1);
                opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
            }
            opt->type_name(s->type == io::FieldType::integer                                        ? "INT"
                           : s->type == io::FieldType::size                                         ? "SIZE"
                           : s->type == io::FieldType::number || s->type == io::FieldType::duration ? "NUM"
                                                                                                    : "TEXT");
        }
    }
}

CLI::App* add_request_command(CLI::App& app, std::string_view name, const char* help, RequestOptions& o) {
    auto* cmd = app.add_subcommand(std::string(name), std::string(io::find_kind(name)->summary));
    cmd->footer(help);
    add_request_flags(cmd, *io::find_kind(name), o.request);
    cmd->add_flag("--json", o.as_json, "Print one JSON object");
    auto* batch = cmd->add_flag("--batch", o.batch,
                                "Read JSON Lines on stdin, write one JSON line per input line (the fields above as JSON keys)");
    cmd->add_option("--fields", o.fields,
                    "With --batch: write only these answer fields, comma-separated, dotted for nested ones "
                    "(--fields blocks_per_sm,occupancy,limits.registers); \"error\" is always kept. An unknown name is "
                    "refused and the allowed ones listed")
        ->type_name("LIST")
        ->needs(batch);
    return cmd;
}

Result<json> request_from(const RequestFlags& flags) {
    json r = json::object();
    for (const io::FieldSpec* s : flags.kind->fields) {
        auto it = flags.given.find(std::string(s->key));
        if (it == flags.given.end() || it->second.empty()) continue;
        Result<json> v = value_of(*s, it->second);
        if (!v) return Result<json>::fail(v.error);
        r[std::string(s->key)] = std::move(*v);
    }
    return Result<json>::ok(std::move(r));
}

}  // namespace occ::cli
