#pragma once
// Sums in any summation order (ATen's reductions and BLAS pick their own): a product with a
// ones vector through tape::tracked_gemm, whose bound holds for every order.
#include <cstddef>
#include <vector>

#include "mlp_audit/either.hpp"
#include "tape/tracked_gemm.hpp"

namespace mlp_audit {

// Row sums of an r x c row-major matrix.
[[nodiscard]] inline std::vector<T32> row_sums(const std::vector<T32>& m, std::size_t r, std::size_t c) {
  const std::vector<T32> ones(c, T32(1));
  std::vector<T32> out(r);
  tape::tracked_gemm(false, false, r, 1, c, m.data(), ones.data(), false, out.data());
  return out;
}

[[nodiscard]] inline T32 total(const std::vector<T32>& v) { return row_sums(v, 1, v.size()).front(); }

}  // namespace mlp_audit
