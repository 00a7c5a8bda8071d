#pragma once
// Rules 4-9, way (b): every number of a step re-derived in fp64 from the state the step started
// from, each stored fp32 entry within a tolerance from an error bound of its fp32 computation.
//   - clip, schedule, AdamW, error buffers: formulas written here from nltrain-math §10 (not the
//     trainer's code); one or two fp32 roundings each, so the bound is a few units in the last
//     place of the entry itself.
//   - loss, gradients, context: cms_forward / cms_backward at T = double. Their fp32 error has no
//     cheap per-entry bound; the tolerance is kForwardSlack units of fp32 roundoff of the entry
//     plus of the largest gradient (or context) entry of the step: norm-wise, because an entry
//     that cancels to nearly nothing keeps the rounding error of the terms it summed.
#include <functional>
#include <span>

#include "nl/trainer.hpp"
#include "nl_audit/receipt.hpp"
#include "nl_audit/verify.hpp"

namespace nl_audit {

inline constexpr double kForwardSlack = 4096;  // calibrated on honest receipts (man bp)

struct Fp64Case {
  const Receipt& r;
  const nl::TrainerState& before;  // as the step read it (context reset applied)
  std::span<const std::size_t> ids, targets;
  const nl::StepTrace& stored;     // the receipt's gradients and frozen error contributions
  const nl::TrainerState& after;   // the receipt's state after
};

void check_fp64(const Fp64Case& c, const std::function<void(Failure)>& fail);

}  // namespace nl_audit
