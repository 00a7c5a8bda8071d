#pragma once
// Trainer: the per-chunk loop of nltrain-math §5 (seed "CMS Integration"). A Build step observes
// the pulse, computes the chunk's gradients (on a fresh tape, or by the hand-written backward),
// files frozen levels' gradients into their error buffers and merges the buffers of active
// levels, clips, runs AdamW, carries the context memory, then advances the conductor. Test and
// Stream steps are forward-only: no tape, no update (the context still moves on).
// A batched trainer (batch B > 1, nltrain train --batch) keeps B context memories, one per
// stream of sequences, and its build step takes B sequences: their mean gradient
// (batch_gradients.hpp) goes through the same error buffers, clipping and AdamW as one
// sequence's does. A trainer of batch 1 is the single-sequence trainer, bit for bit.
// All state is a value: copying a Trainer is a checkpoint.
// Every type here is a template on the element type T: float (Trainer, TrainerState, ...: the
// names nltrain always used) and double (an fp64 run, nltrain train --fp64: parameters, AdamW
// moments, error buffers and contexts in binary64, the gradient by the hand-written backward
// only, since the tape is fp32-only). Both are instantiated in trainer.cpp.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/expected.hpp"
#include "common/result.hpp"
#include "common/worker_pool.hpp"
#include "nl/adamw.hpp"
#include "nl/batch_gradients.hpp"
#include "nl/conductor.hpp"
#include "nl/context_memory.hpp"
#include "nl/error_buffer.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "nl/step_error.hpp"
#include "nl/step_phases.hpp"
#include "tape/opaque/opaque_registry.hpp"

namespace nl {

template <typename T>
struct BasicStepReport {
  T loss = 0;
  double grad_norm = 0;  // before clipping
  Pulse pulse;
};
using StepReport = BasicStepReport<float>;

// What a build step computed between its inputs and its update, for step receipts (nl_audit):
// the gradient after the error buffers of active levels were summed in and before clipping,
// each frozen level's error-buffer contribution (zero for active levels), the norm, the clip
// factor applied (nullopt: not clipped) and the learning rate of the schedule.
template <typename T>
struct BasicStepTrace {
  MagParams<T> gradients;
  std::vector<LevelParams<T>> error;
  double grad_norm = 0;
  std::optional<T> clip_scale;
  double lr = 0;
};
using StepTrace = BasicStepTrace<float>;

// Everything a Trainer holds, as plain data: what a checkpoint stores (checkpoint.hpp).
template <typename T>
struct BasicTrainerState {
  MagConfig cfg;
  AdamWConfig opt;
  MagParams<T> params;
  BasicAdamWState<T> adam;
  std::uint64_t step = 0;  // the conductor's position
  ContextMemory<T> context;
  std::vector<LevelParams<T>> buffer_sums;
  std::vector<std::size_t> buffer_counts;
  // Streams 1..B-1 of a batched trainer (empty for B = 1); `context` is stream 0's. Last, so a
  // state written without it (B = 1) reads as before.
  std::vector<ContextMemory<T>> more_contexts{};
};
using TrainerState = BasicTrainerState<float>;

template <typename T>
class BasicTrainer {
 public:
  using Value = T;
  // cfg must be valid (validate(cfg)); params from MagParams::init or a checkpoint; batch >= 1
  // (0 is taken as 1).
  BasicTrainer(MagConfig cfg, MagParams<T> params, AdamWConfig opt, std::size_t batch = 1);

  // A failure says whether the step went non-finite (nothing was updated then) or was a wrong call.
  // One sequence: a trainer of batch 1 only.
  [[nodiscard]] common::Expected<BasicStepReport<T>, StepError> build_step(const tape::opaque::OpaqueRegistry& registry,
                                                      std::span<const std::size_t> ids,
                                                      std::span<const std::size_t> targets, GradientPath path,
                                                      BasicStepTrace<T>* trace = nullptr);
  // batch() sequences, sequence b read from and carried into context b; the report's loss and the
  // trace's gradients are the batch means. pool null: on the calling thread. share: the batch is
  // split across processes and `batch` holds this one's part, streams [share->first(), ...);
  // the other streams' contexts are not touched here (set_context brings them in). observer (may
  // be null): told the step's phases (step_phases.hpp); it cannot change a bit of the step.
  // spill: a memory budget's hook (step_spill.hpp); a failure of it is StepFailure::io, and
  // nothing is updated.
  [[nodiscard]] common::Expected<BasicStepReport<T>, StepError> build_batch_step(const tape::opaque::OpaqueRegistry& registry,
                                                            std::span<const Sequence> batch, GradientPath path,
                                                            common::WorkerPool* pool = nullptr, BasicStepTrace<T>* trace = nullptr,
                                                            BatchShare* share = nullptr, StepObserver* observer = nullptr,
                                                            StepSpill* spill = nullptr);
  // Forward only (Test / Stream phases).
  [[nodiscard]] common::Result<T> forward_step(std::span<const std::size_t> ids,
                                                   std::span<const std::size_t> targets);

  [[nodiscard]] const MagParams<T>& params() const { return params_; }
  [[nodiscard]] const ContextMemory<T>& context(std::size_t stream = 0) const { return contexts_[stream]; }
  [[nodiscard]] std::size_t batch() const { return contexts_.size(); }
  [[nodiscard]] const ErrorBuffer<T>& error_buffer(std::size_t l) const { return buffers_[l]; }
  [[nodiscard]] std::uint64_t step() const { return conductor_.step(); }
  // Document boundary (every stream, or one); the step count stays.
  void reset_context() {
    for (ContextMemory<T>& c : contexts_) c.reset(cfg_);
  }
  void reset_context(std::size_t stream) { contexts_[stream].reset(cfg_); }
  // Stream `stream`'s context from another process of a shared batch; fails when it does not fit.
  [[nodiscard]] common::Status set_context(std::size_t stream, ContextMemory<T> c);

  [[nodiscard]] const MagConfig& config() const { return cfg_; }
  [[nodiscard]] BasicTrainerState<T> state() const;
  // The same state, moved out of a trainer that is not used again (no copy of the tensors).
  [[nodiscard]] BasicTrainerState<T> take_state() &&;
  // Rebuilds a trainer from state(); fails naming the field when a part does not fit s.cfg.
  [[nodiscard]] static common::Result<BasicTrainer> from_state(BasicTrainerState<T> s);

 private:
  MagConfig cfg_;
  MagParams<T> params_;
  BasicFrequencyAwareAdamW<T> optimizer_;
  Conductor conductor_;
  std::vector<ContextMemory<T>> contexts_;  // one per stream; forward_step reads stream 0
  std::vector<ErrorBuffer<T>> buffers_;
};
using Trainer = BasicTrainer<float>;
using Trainer64 = BasicTrainer<double>;
using TrainerState64 = BasicTrainerState<double>;
using StepTrace64 = BasicStepTrace<double>;
using StepReport64 = BasicStepReport<double>;

extern template class BasicTrainer<float>;
extern template class BasicTrainer<double>;

}  // namespace nl
