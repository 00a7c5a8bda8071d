#pragma once
// The stages of a build step after the backward pass, run with the trainer's own fp32 code from
// a receipt's inputs to each (way (a) of rules 6, 8 and 9): clip the stored gradient, update
// with AdamW at the stored rate and pulse, and file the stored error contributions into the
// error buffers. The context after comes from the recomputed forward.
#include <optional>

#include "nl/trainer.hpp"

namespace nl_audit {

// T: float, or double for an fp64 run's receipts (the fp64 trainer's own code alike).
template <typename T>
struct BasicStageResult {
  double grad_norm = 0;
  std::optional<T> clip_scale;
  nl::BasicTrainerState<T> after;
};
using StageResult = BasicStageResult<float>;

template <typename T>
[[nodiscard]] BasicStageResult<T> run_stages(const nl::BasicTrainerState<T>& before, const nl::BasicStepTrace<T>& stored,
                                             const nl::Pulse& pulse, const nl::ContextMemory<T>& context_after);

}  // namespace nl_audit
