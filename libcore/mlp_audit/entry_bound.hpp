#pragma once
// The tolerance each stored fp32 entry is held to against its fp64 recomputation: the Tracked
// bound e * (1 + 2^-30) + 2^-149, or, where that bound overflowed (or is not a number), the
// norm-wise tolerance 2^-10 (|ref| + max |ref| of the tensor), which verify reports as counted.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/tracked.hpp"

namespace mlp_audit {

struct EntryScan {
  std::optional<std::size_t> outside;  // the first entry beyond its tolerance
  double bound = 0;                    // that entry's tolerance
  std::uint64_t normwise = 0;          // entries held to the norm-wise tolerance, up to the first outside
};

// The Tracked tolerance of one value with bound e: e * (1 + 2^-30) + 2^-149 (the slack covers
// the bound's own binary64 roundings and fp32's smallest subnormal).
[[nodiscard]] constexpr double tracked_tolerance(double e) { return e * (1 + 0x1p-30) + 0x1p-149; }

// `stored` and `ref` have the same length (the reader checked the shapes).
[[nodiscard]] EntryScan first_outside_bound(std::span<const float> stored, const std::vector<common::Tracked<float>>& ref);

}  // namespace mlp_audit
