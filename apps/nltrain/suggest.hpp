#pragma once
// "Did you mean": the nearest name within max(2, len/3) edits (optimal string alignment).
#include <optional>
#include <string_view>
#include <vector>

namespace nltrain {

[[nodiscard]] std::optional<std::string_view> suggest(std::string_view given, const std::vector<std::string_view>& names);

}  // namespace nltrain
