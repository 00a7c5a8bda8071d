#pragma once
// C = op(A) op(B) (+ C when `add`) for Tracked<A> operands: the binary64 product through dgemm,
// with a bound that covers any A-precision gemm of the A operands, in any summation order
// (A = float: an fp32 trainer's sgemm; A = double: another binary64 dgemm, blocked differently).
#include <cstddef>

#include "common/tracked.hpp"

namespace tape {

template <class A>
void tracked_gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const common::Tracked<A>* a,
                  const common::Tracked<A>* b, bool add, common::Tracked<A>* c);

extern template void tracked_gemm<float>(bool, bool, std::size_t, std::size_t, std::size_t, const common::Tracked<float>*,
                                         const common::Tracked<float>*, bool, common::Tracked<float>*);
extern template void tracked_gemm<double>(bool, bool, std::size_t, std::size_t, std::size_t, const common::Tracked<double>*,
                                          const common::Tracked<double>*, bool, common::Tracked<double>*);

}  // namespace tape
