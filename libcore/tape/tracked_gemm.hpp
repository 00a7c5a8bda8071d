#pragma once
// C = op(A) op(B) (+ C when `add`) for Tracked<float> operands: the binary64 product through
// dgemm, with a bound that covers any fp32 sgemm of the fp32 operands, in any summation order.
#include <cstddef>

#include "common/tracked.hpp"

namespace tape {

void tracked_gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const common::Tracked<float>* a,
                  const common::Tracked<float>* b, bool add, common::Tracked<float>* c);

}  // namespace tape
