#pragma once
// An fp32 result that is either `a` or `b`: a kink torch may have taken either side of, or a
// formula torch spells two ways across versions or kernels. The midpoint, with half their
// distance added to the bound, covers both.
#include <algorithm>
#include <cmath>

#include "common/tracked.hpp"

namespace mlp_audit {

using T32 = common::Tracked<float>;

[[nodiscard]] inline T32 either(const T32& a, const T32& b) {
  return T32::exact((a.v + b.v) / 2, std::abs(a.v - b.v) / 2 + std::max(a.e, b.e));
}

}  // namespace mlp_audit
