// occ/text.hpp — the small text operations every layer uses (lists in messages, case-blind names,
// trimmed fields), written once.
#pragma once
#include <cctype>
#include <string>
#include <string_view>

namespace occ {

// Appends `item` to the list being built in `s`, with `separator` between items:
// for (...) join_into(names, ", ", name)  gives "a, b, c".
void join_into(std::string& s, std::string_view separator, std::string_view item);

// `s` in ASCII lower case (names, units and keywords are compared case-blind).
inline std::string lower(std::string_view s) {
    std::string o(s);
    for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
}

// `s` without std::isspace characters at either end.
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

}  // namespace occ
