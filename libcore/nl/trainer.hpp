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

struct StepReport {
  float loss = 0;
  double grad_norm = 0;  // before clipping
  Pulse pulse;
};

// What a build step computed between its inputs and its update, for step receipts (nl_audit):
// the gradient after the error buffers of active levels were summed in and before clipping,
// each frozen level's error-buffer contribution (zero for active levels), the norm, the clip
// factor applied (nullopt: not clipped) and the learning rate of the schedule.
struct StepTrace {
  MagParams<float> gradients;
  std::vector<LevelParams<float>> error;
  double grad_norm = 0;
  std::optional<float> clip_scale;
  double lr = 0;
};

// Everything a Trainer holds, as plain data: what a checkpoint stores (checkpoint.hpp).
struct TrainerState {
  MagConfig cfg;
  AdamWConfig opt;
  MagParams<float> params;
  AdamWState adam;
  std::uint64_t step = 0;  // the conductor's position
  ContextMemory<float> context;
  std::vector<LevelParams<float>> buffer_sums;
  std::vector<std::size_t> buffer_counts;
  // Streams 1..B-1 of a batched trainer (empty for B = 1); `context` is stream 0's. Last, so a
  // state written without it (B = 1) reads as before.
  std::vector<ContextMemory<float>> more_contexts{};
};

class Trainer {
 public:
  // cfg must be valid (validate(cfg)); params from MagParams::init or a checkpoint; batch >= 1
  // (0 is taken as 1).
  Trainer(MagConfig cfg, MagParams<float> params, AdamWConfig opt, std::size_t batch = 1);

  // A failure says whether the step went non-finite (nothing was updated then) or was a wrong call.
  // One sequence: a trainer of batch 1 only.
  [[nodiscard]] common::Expected<StepReport, StepError> build_step(const tape::opaque::OpaqueRegistry& registry,
                                                      std::span<const std::size_t> ids,
                                                      std::span<const std::size_t> targets, GradientPath path,
                                                      StepTrace* trace = nullptr);
  // batch() sequences, sequence b read from and carried into context b; the report's loss and the
  // trace's gradients are the batch means. pool null: on the calling thread. share: the batch is
  // split across processes and `batch` holds this one's part, streams [share->first(), ...);
  // the other streams' contexts are not touched here (set_context brings them in). observer (may
  // be null): told the step's phases (step_phases.hpp); it cannot change a bit of the step.
  // spill: a memory budget's hook (step_spill.hpp); a failure of it is StepFailure::io, and
  // nothing is updated.
  [[nodiscard]] common::Expected<StepReport, StepError> build_batch_step(const tape::opaque::OpaqueRegistry& registry,
                                                            std::span<const Sequence> batch, GradientPath path,
                                                            common::WorkerPool* pool = nullptr, StepTrace* trace = nullptr,
                                                            BatchShare* share = nullptr, StepObserver* observer = nullptr,
                                                            StepSpill* spill = nullptr);
  // Forward only (Test / Stream phases).
  [[nodiscard]] common::Result<float> forward_step(std::span<const std::size_t> ids,
                                                   std::span<const std::size_t> targets);

  [[nodiscard]] const MagParams<float>& params() const { return params_; }
  [[nodiscard]] const ContextMemory<float>& context(std::size_t stream = 0) const { return contexts_[stream]; }
  [[nodiscard]] std::size_t batch() const { return contexts_.size(); }
  [[nodiscard]] const ErrorBuffer<float>& error_buffer(std::size_t l) const { return buffers_[l]; }
  [[nodiscard]] std::uint64_t step() const { return conductor_.step(); }
  // Document boundary (every stream, or one); the step count stays.
  void reset_context() {
    for (ContextMemory<float>& c : contexts_) c.reset(cfg_);
  }
  void reset_context(std::size_t stream) { contexts_[stream].reset(cfg_); }
  // Stream `stream`'s context from another process of a shared batch; fails when it does not fit.
  [[nodiscard]] common::Status set_context(std::size_t stream, ContextMemory<float> c);

  [[nodiscard]] const MagConfig& config() const { return cfg_; }
  [[nodiscard]] TrainerState state() const;
  // The same state, moved out of a trainer that is not used again (no copy of the tensors).
  [[nodiscard]] TrainerState take_state() &&;
  // Rebuilds a trainer from state(); fails naming the field when a part does not fit s.cfg.
  [[nodiscard]] static common::Result<Trainer> from_state(TrainerState s);

 private:
  MagConfig cfg_;
  MagParams<float> params_;
  FrequencyAwareAdamW optimizer_;
  Conductor conductor_;
  std::vector<ContextMemory<float>> contexts_;  // one per stream; forward_step reads stream 0
  std::vector<ErrorBuffer<float>> buffers_;
};

}  // namespace nl
