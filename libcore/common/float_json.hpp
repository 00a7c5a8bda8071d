#pragma once
// JSON numbers for floats: the shortest decimal that reads back as the same float, so 0.82F
// prints as 0.82 rather than 0.8199999928474426. Locale-independent; null for NaN and Inf.
#include <nlohmann/json.hpp>

namespace common {

[[nodiscard]] nlohmann::ordered_json float_json(float v);

}  // namespace common
