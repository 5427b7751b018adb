// url.cpp — scenario <-> URL query/fragment (see occ/io/url.hpp for the format).
#include "occ/io/url.hpp"

#include "occ/io/utf8.hpp"

#include <cmath>
#include <vector>

namespace occ::io {
namespace {

// Long enough for any scenario; short enough that a hostile link cannot make us parse megabytes.
constexpr std::size_t kMaxText = 16 * 1024;

bool is_key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; }

bool is_simple_key(const std::string& k) {
    if (k.empty()) return false;
    for (char c : k)
        if (!is_key_char(c)) return false;
    return true;
}

// True when every key at every object level can be written as a dotted path.
bool flattenable(const json& obj) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (!is_simple_key(it.key())) return false;
        if (it->is_object() && !flattenable(*it)) return false;
    }
    return true;
}

// Kept as they are in values: RFC 3986 unreserved, plus a few sub-delims that read well in a
// fragment and mean nothing to our syntax ('&', '=', '+', '#', '%' are always escaped).
bool is_plain(char c) {
    if (is_key_char(c)) return true;
    switch (c) {
        case '.':
        case '~':
        case ',':
        case ':':
        case '/':
        case '[':
        case ']':
        case '\'':
        case '(':
        case ')':
        case '*':
        case '!':
        case '@': return true;
        default: return false;
    }
}

// Would the text read back as something other than a string (number, bool, null, array, object)?
json parse_scalar_or_null(std::string_view s) { return json::parse(s.begin(), s.end(), nullptr, /*allow_exceptions=*/false); }
bool reads_as_non_string(std::string_view s) {
    if (s.empty()) return false;
    if (s.front() == '\'' || s.front() == '[' || s.front() == '{') return true;
    const json v = parse_scalar_or_null(s);
    return !v.is_discarded() && !v.is_string();
}

std::string value_text(const json& v) {
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        return reads_as_non_string(s) ? "'" + s : s;
    }
    return v.dump();  // numbers, booleans, null, arrays, empty objects: compact JSON
}

void flatten(const json& obj, const std::string& prefix, std::string& out) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string key = prefix + it.key();
        if (it->is_object() && !it->empty()) {
            flatten(*it, key + ".", out);
            continue;
        }
        if (!out.empty()) out += '&';
        out += key;  // simple keys need no escaping
        out += '=';
        out += percent_encode(value_text(*it));
    }
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string shown(std::string_view s) {
    std::string o = utf8_prefix(s, 40);
    if (s.size() > 40) o += "...";
    return o;
}

Result<json> fail(std::string msg) { return Result<json>::fail(std::move(msg)); }

Result<json> decode_value(const std::string& key, const std::string& v) {
    if (!v.empty() && v.front() == '\'') return Result<json>::ok(json(v.substr(1)));
    if (!v.empty() && (v.front() == '[' || v.front() == '{')) {
        json j = parse_scalar_or_null(v);
        if (j.is_discarded()) return fail(key + ": not valid JSON: \"" + shown(v) + "\"");
        return Result<json>::ok(std::move(j));
    }
    json j = parse_scalar_or_null(v);
    if (v.empty() || j.is_discarded() || j.is_string()) return Result<json>::ok(json(v));
    if (j.is_number_float() && !std::isfinite(j.get<double>())) return fail(key + ": number out of range: \"" + shown(v) + "\"");
    return Result<json>::ok(std::move(j));
}

// Puts `value` at the dotted `path` inside `root`.
std::string insert_path(json& root, const std::string& path, json value) {
    json* node = &root;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!is_simple_key(part)) return "bad field name \"" + shown(path) + "\" (letters, digits, '_', '-' and '.' between parts)";
        if (dot == std::string::npos) {
            if (node->contains(part)) return path + ": given twice";
            (*node)[part] = std::move(value);
            return {};
        }
        json& child = (*node)[part];  // creates null when absent
        if (child.is_null()) child = json::object();
        if (!child.is_object()) return path.substr(0, dot) + ": given both as a value and as a group";
        node = &child;
        start = dot + 1;
    }
}

}  // namespace

std::string percent_encode(std::string_view text) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (is_plain(c)) {
            out += c;
        } else {
            const auto u = static_cast<unsigned char>(c);
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

Result<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+' && plus_is_space) {
            out += ' ';
        } else if (c == '%') {
            const int hi = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
            const int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return Result<std::string>::fail("bad percent escape \"" + shown(text.substr(i, 3)) + "\" at position " +
                                                 std::to_string(i));
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += c;
        }
    }
    // Scenario text becomes JSON strings, which must be UTF-8 (dump() throws otherwise).
    if (!valid_utf8(out)) return Result<std::string>::fail("not valid UTF-8 text: \"" + shown(out) + "\"");
    return Result<std::string>::ok(std::move(out));
}

std::string encode_url_query(const json& obj) {
    if (!obj.is_object()) return encode_url_query(json{{"value", obj}});
    if (!flattenable(obj)) return percent_encode(obj.dump());
    std::string out;
    flatten(obj, "", out);
    return out;
}

json merge_patch_diff(const json& base, const json& target) {
    if (!base.is_object() || !target.is_object()) return target;
    json patch = json::object();
    for (auto it = target.begin(); it != target.end(); ++it) {
        const auto b = base.find(it.key());
        if (b == base.end()) {
            patch[it.key()] = *it;
        } else if (b->is_object() && it->is_object()) {
            json sub = merge_patch_diff(*b, *it);
            if (!sub.empty()) patch[it.key()] = std::move(sub);
        } else if (*b != *it) {
            patch[it.key()] = *it;
        }
    }
    for (auto it = base.begin(); it != base.end(); ++it)
        if (!target.contains(it.key())) patch[it.key()] = nullptr;
    return patch;
}

Result<json> decode_url_query(std::string_view text) {
    if (!text.empty() && (text.front() == '#' || text.front() == '?')) text.remove_prefix(1);
    if (text.size() > kMaxText)
        return fail("link too long (" + std::to_string(text.size()) + " characters, at most " + std::to_string(kMaxText) + ")");
    if (text.empty()) return Result<json>::ok(json::object());

    // Whole-JSON form: #{...} or #%7B...%7D
    if (text.front() == '{' || (text.size() >= 3 && text.substr(0, 3) == "%7B") || (text.size() >= 3 && text.substr(0, 3) == "%7b")) {
        auto raw = percent_decode(text, /*plus_is_space=*/false);
        if (!raw) return fail(raw.error);
        json j = parse_scalar_or_null(*raw);
        if (j.is_discarded() || !j.is_object()) return fail("not a valid JSON object: \"" + shown(*raw) + "\"");
        return Result<json>::ok(std::move(j));
    }

    json out = json::object();
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t amp = text.find('&', start);
        if (amp == std::string_view::npos) amp = text.size();
        const std::string_view part = text.substr(start, amp - start);
        start = amp + 1;
        if (part.empty()) {
            if (amp == text.size()) break;
            continue;  // tolerate "a=1&&b=2" and a trailing '&'
        }
        const std::size_t eq = part.find('=');
        auto key = percent_decode(part.substr(0, eq));
        if (!key) return fail(key.error);
        json value = true;  // a bare key is a flag
        if (eq != std::string_view::npos) {
            auto raw = percent_decode(part.substr(eq + 1));
            if (!raw) return fail(*key + ": " + raw.error);
            auto v = decode_value(*key, *raw);
            if (!v) return v;
            value = std::move(*v);
        }
        if (std::string err = insert_path(out, *key, std::move(value)); !err.empty()) return fail(err);
        if (amp == text.size()) break;
    }
    return Result<json>::ok(std::move(out));
}

}  // namespace occ::io
