#pragma once
// Rules 4-9, way (b): every number of a step re-derived in binary64 from the state the step started
// from, each stored entry (fp32, or binary64 for an fp64 run's receipt) within a tolerance from an
// error bound of its computation in the receipt's precision, whatever the machine's BLAS.
//   - clip, schedule, AdamW, error buffers: formulas written here from nltrain-math §10 (not the
//     trainer's code); one or two roundings each, so the bound is a few units in the last place
//     of the entry itself.
//   - loss, gradients, context: cms_forward / cms_backward at Tracked32 (an fp32 run) or
//     Tracked64 (an fp64 run; nl/tracked32.hpp): the binary64 value of each entry and a bound,
//     carried through every operation, on how far any evaluation of the same formulas in the
//     receipt's precision can be from it (BLAS in any summation order; for Tracked64 the bound
//     covers both binary64 evaluations, ours and the trainer's). That bound is the entry's
//     tolerance. Where it is not proven (a comparison that the receipt's evaluation could have
//     decided the other way, or a bound that overflowed in a long recurrence: MEMORA's logs and
//     the lattice's normalizations do), the step falls back to kForwardSlack roundoffs of the
//     receipt's precision of the entry plus of the step's largest entry of its kind, calibrated
//     on honest receipts, and is counted (StreamVerifier::normwise_steps).
#include <functional>
#include <span>

#include "nl/trainer.hpp"
#include "nl_audit/receipt.hpp"
#include "nl_audit/verify.hpp"

namespace nl_audit {

inline constexpr double kForwardSlack = 4096;  // calibrated on honest receipts (man bp)
inline constexpr double kBoundSlack = 0x1p-30;   // relative, for the bound's own binary64 arithmetic

template <typename T>
struct BasicFp64Case {
  const Receipt& r;
  const nl::BasicTrainerState<T>& before;  // as the step read it (context reset applied)
  std::span<const std::size_t> ids, targets;
  const nl::BasicStepTrace<T>& stored;     // the receipt's gradients and frozen error contributions
  const nl::BasicTrainerState<T>& after;   // the receipt's state after
};
using Fp64Case = BasicFp64Case<float>;

// False when a branch inside its operands' bounds left the per-entry bounds unproven and the
// forward quantities were judged norm-wise instead.
[[nodiscard]] bool check_fp64(const Fp64Case& c, const std::function<void(Failure)>& fail);
// An fp64 run's receipt: the same checks at Tracked64 and binary64 roundoffs.
[[nodiscard]] bool check_fp64(const BasicFp64Case<double>& c, const std::function<void(Failure)>& fail);

}  // namespace nl_audit
