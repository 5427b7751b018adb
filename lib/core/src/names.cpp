// names.cpp — name folding, edit distance and "did you mean" (see occ/names.hpp).
#include "occ/names.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace occ {

std::string fold_name(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
}

std::string normalise_name(std::string_view s, std::initializer_list<std::string_view> vendor_words) {
    std::string out = fold_name(s);
    for (std::string_view w : vendor_words)
        if (out.size() > w.size() && std::string_view(out).substr(0, w.size()) == w) out.erase(0, w.size());
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b, bool swaps) {
    // Rows i-2, i-1 and i of the dynamic-programming table.
    std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            if (swaps && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
        }
        std::swap(before, prev);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

void Closest::offer(std::string_view candidate, std::string_view answer) {
    std::size_t d = 2 * edit_distance(word_, candidate, swaps_);
    if (prefix_bonus_ && candidate.size() > word_.size() && candidate.substr(0, word_.size()) == word_) d = std::min<std::size_t>(d, 1);
    if (d < best_half_edits_) {
        best_half_edits_ = d;
        best_ = answer;
    }
}

std::string Closest::best() const {
    const std::size_t allowed = 2 * std::max<std::size_t>(2, word_.size() / 3);
    return best_half_edits_ <= allowed ? best_ : std::string();
}

}  // namespace occ
