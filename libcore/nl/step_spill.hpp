#pragma once
// StepSpill: what a training step (Trainer::build_batch_step, batch_gradients) hands each
// sequence's tape so that a memory budget can move the memory rules' caches out of RAM between
// the forward and the backward (tape/context_spill.hpp). nl only passes it through; the budget,
// the files and the policy live above it (nl_store/spill_store.hpp, over hybrid's memory
// manager), because nl does not link hybrid. The bits do not depend on it: a context comes back
// exactly as it went out.
#include <cstddef>
#include <memory>

#include "tape/context_spill.hpp"

namespace nl {

class StepSpill {
 public:
  virtual ~StepSpill() = default;
  // The hook for sequence b's tape, made and used on the thread that computes that sequence, and
  // dropped when its gradient is done (after its tape). Sequences of one step may run at once.
  [[nodiscard]] virtual std::unique_ptr<tape::ContextSpill> for_sequence(std::size_t b) = 0;
};

}  // namespace nl
