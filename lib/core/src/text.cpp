// text.cpp — occ/text.hpp's list builder, out of line (it is called from every layer; one copy keeps
// the page small).
#include "occ/text.hpp"

namespace occ {

void join_into(std::string& s, std::string_view separator, std::string_view item) {
    if (!s.empty()) s += separator;
    s += item;
}

}  // namespace occ
