#pragma once
// The edit distance behind the tools' "did you mean" hints. Each tool keeps its own rules for
// which candidate to offer; they share only the distance.
#include <cstddef>
#include <string_view>

namespace common {

// Optimal string alignment distance (restricted Damerau-Levenshtein): insertions, deletions,
// substitutions and transpositions of two adjacent bytes each cost one edit, and no substring
// is edited twice. Time O(|a|·|b|), memory O(|b|).
[[nodiscard]] std::size_t osa_distance(std::string_view a, std::string_view b);

}  // namespace common
