#pragma once
// "Did you mean" suggestions, with the reference bp's choices: prefix matches first, then the
// nearest optimal-string-alignment (restricted Damerau-Levenshtein) distance within
// max(2, ceil(len/3)) edits, ties to the shorter candidate.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bp::cli {

// For an unknown top-level command: an example invocation of the verb meant, if any.
[[nodiscard]] std::optional<std::string> suggest_command(std::string_view unknown);

// For an unrecognized flag (an inline "=value" is ignored), among `known`.
[[nodiscard]] std::optional<std::string_view> suggest_flag(std::string_view unknown,
                                                           const std::vector<std::string_view>& known);

struct SubnounExample {
  std::string_view noun;
  std::string_view example;
};

// First candidate that is a prefix of `unknown` or has `unknown` as a prefix, else the nearest
// within the edit-distance threshold.
[[nodiscard]] std::optional<std::string_view> suggest_subnoun(std::string_view unknown,
                                                              const std::vector<SubnounExample>& candidates);

}  // namespace bp::cli
