#include "mlp_audit/entry_bound.hpp"

#include <algorithm>
#include <cmath>

namespace mlp_audit {
namespace {

constexpr double kNormwise = 0x1p-10;

}  // namespace

EntryScan first_outside_bound(std::span<const float> stored, const std::vector<common::Tracked<float>>& ref) {
  EntryScan scan;
  double largest = -1;  // max |ref| of the tensor, found where a bound first overflows
  for (std::size_t i = 0; i < stored.size(); ++i) {
    double bound = tracked_tolerance(ref[i].e);
    if (!std::isfinite(bound)) {
      if (largest < 0)
        for (const auto& t : ref) largest = std::max(largest, std::abs(t.v));
      ++scan.normwise, bound = kNormwise * (std::abs(ref[i].v) + largest);
    }
    if (std::abs(static_cast<double>(stored[i]) - ref[i].v) <= bound) continue;
    scan.outside = i, scan.bound = bound;
    return scan;
  }
  return scan;
}

}  // namespace mlp_audit
