// occ/names.hpp — how occ compares names typed by people: one normaliser, one edit distance and
// one "did you mean", for GPU names (device.hpp, roofline.hpp) and request field names (occ::io).
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace occ {

// Lower-case letters and digits only: "RTX 4090", "rtx-4090" and "rtx4090" fold to the same name.
std::string fold_name(std::string_view s);

// fold_name, then each of `vendor_words` (folded, in order) dropped once from the front when more
// follows: with {"nvidia", "geforce"}, "NVIDIA GeForce RTX 4090" -> "rtx4090".
std::string normalise_name(std::string_view s, std::initializer_list<std::string_view> vendor_words);

// Edits (insert, delete, replace) that turn a into b. With swaps, exchanging two neighbours counts
// as one edit (optimal string alignment: "4009" -> "4090" is 1; Levenshtein without swaps: 2).
std::size_t edit_distance(std::string_view a, std::string_view b, bool swaps = true);

// "Did you mean": offer candidates, then read the closest one. A candidate is accepted within
// max(2, |word| / 3) edits; on a tie the first offered wins. With prefix_bonus, a candidate that
// starts with the word counts as half an edit ("h10" -> "h100" beats a one-letter typo).
class Closest {
public:
    explicit Closest(std::string_view word, bool swaps = true, bool prefix_bonus = false)
        : word_(word), swaps_(swaps), prefix_bonus_(prefix_bonus) {}
    // `candidate` is compared with the word; `answer` is what best() returns when it wins.
    void offer(std::string_view candidate, std::string_view answer);
    void offer(std::string_view candidate) { offer(candidate, candidate); }
    std::string best() const;  // "" when no candidate is close enough

private:
    std::string word_;
    bool swaps_, prefix_bonus_;
    std::size_t best_half_edits_ = static_cast<std::size_t>(-1);
    std::string best_;
};

}  // namespace occ
