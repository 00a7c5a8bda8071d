#pragma once
// "Did you mean": the candidate nearest to what was typed, by optimal string alignment, within
// max(2, ceil(len / 3)) edits of the candidate's length; the earlier candidate on a tie.
#include <optional>
#include <span>
#include <string_view>

namespace cli_common {

[[nodiscard]] std::size_t reach_of(std::string_view candidate);
[[nodiscard]] std::optional<std::string_view> nearest_name(std::string_view typed,
                                                           std::span<const std::string_view> candidates);

}  // namespace cli_common
