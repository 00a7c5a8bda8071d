#pragma once
// The stages of a build step after the backward pass, run with the trainer's own fp32 code from
// a receipt's inputs to each (way (a) of rules 6, 8 and 9): clip the stored gradient, update
// with AdamW at the stored rate and pulse, and file the stored error contributions into the
// error buffers. The context after comes from the recomputed forward.
#include <optional>

#include "nl/trainer.hpp"

namespace nl_audit {

struct StageResult {
  double grad_norm = 0;
  std::optional<float> clip_scale;
  nl::TrainerState after;
};

[[nodiscard]] StageResult run_stages(const nl::TrainerState& before, const nl::StepTrace& stored, const nl::Pulse& pulse,
                                     const nl::ContextMemory<float>& context_after);

}  // namespace nl_audit
