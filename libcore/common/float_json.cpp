#include "common/float_json.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace common {

nlohmann::ordered_json float_json(float v) {
  if (!std::isfinite(v)) return nullptr;
  std::array<char, 64> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  double d = 0;
  std::from_chars(buf.data(), res.ptr, d);
  return d;
}

}  // namespace common
