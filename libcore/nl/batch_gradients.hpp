#pragma once
// batch_gradients: the gradient of one training step over B sequences (nltrain train --batch B).
// Each sequence runs its own forward and backward from its own context memory (on a fresh tape,
// or by the hand-written backward), independently of the others, on the threads of a
// common::WorkerPool when one is given. The step's loss is the mean of the B losses and its
// gradient the mean of the B gradients, summed in the fixed order b = 0, 1, ..., B-1 on the
// calling thread and then divided by B (frozen levels' error-buffer contributions alike), so the
// result is the same bits whatever the number of threads. For B = 1 the sequence's own loss and
// gradient come back untouched: a batch of one is the single-sequence step, bit for bit.
// All sequences share the conductor's pulse; a learned frequency schedule picks its own pulse
// per chunk, so it takes one sequence per step (B > 1 is refused as invalid).
// T is float, or double for an fp64 run (nltrain train --fp64): the tape is fp32-only, so at
// double only the hand-written path runs, on one process (no BatchShare, no spill; each refused
// as invalid).
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/expected.hpp"
#include "common/result.hpp"
#include "common/worker_pool.hpp"
#include "nl/cms_backward.hpp"
#include "nl/conductor.hpp"
#include "nl/context_memory.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "nl/step_error.hpp"
#include "nl/step_phases.hpp"
#include "nl/step_spill.hpp"
#include "tape/opaque/opaque_registry.hpp"

namespace nl {

enum class GradientPath : unsigned char { tape, hand_written };

// One sequence of a batch: its input tokens and next-token targets (seq_len each).
struct Sequence {
  std::span<const std::size_t> ids, targets;
};

// A batch computed by several processes (nltrain train under mpirun: apps/nltrain/rank_share.*):
// this one holds sequences [first(), first() + its count) of total(). The sums that make the
// means pass through every process in order (chain), each adding its sequences in index order,
// so they are one process's sums, bit for bit, whatever the number of processes.
class BatchShare {
 public:
  virtual ~BatchShare() = default;
  [[nodiscard]] virtual std::size_t first() const = 0;
  [[nodiscard]] virtual std::size_t total() const = 0;
  // Passes `running` (empty at the first process) through the processes in order, each calling
  // add_mine on it; every process returns holding the last one's result.
  [[nodiscard]] virtual common::Status chain(std::vector<float>& running,
                                             const std::function<void(std::vector<float>&)>& add_mine) = 0;
  // Every process's failure (empty: none); each returns the first non-empty one in process order.
  [[nodiscard]] virtual common::Result<std::string> first_failure(const std::string& mine) = 0;
};

template <typename T>
struct BasicBatchGradients {
  T loss = 0;                                    // mean over the sequences
  MagGradients<T> grads;                         // mean over the sequences
  std::vector<ContextMemory<T>> contexts_after;  // sequence b's context after its chunk
  Pulse pulse;                                   // the levels that ran active
};
using BatchGradients = BasicBatchGradients<float>;

// contexts[b] is sequence b's context (as many as sequences, at least one). pool null: on the
// calling thread. share (null: the whole batch is here): `batch` and `contexts` are this
// process's part, contexts_after too; loss and gradients are the whole batch's means. A failure (the first failing sequence in index order) says whether a value went
// non-finite or the inputs do not fit; for B > 1 its message starts "sequence b: ".
// `observer` (may be null) is told each sequence's forward and backward (as phases of its
// stream, from the worker thread that ran it) and the reduction to the means. spill (null:
// none; the tape path only): each sequence's tape gets spill->for_sequence(b), and a failure to
// move its state out or back fails the step as StepFailure::io, before anything is updated.
template <typename T>
[[nodiscard]] common::Expected<BasicBatchGradients<T>, StepError> batch_gradients(
    const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg, const MagParams<T>& params,
    std::span<const Sequence> batch, std::span<const ContextMemory<T>> contexts, const Pulse& pulse,
    GradientPath path, common::WorkerPool* pool = nullptr, BatchShare* share = nullptr, StepObserver* observer = nullptr,
    StepSpill* spill = nullptr);
// The same at float, for callers that pass containers (no template deduction through spans).
[[nodiscard]] inline common::Expected<BatchGradients, StepError> batch_gradients(
    const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg, const MagParams<float>& params,
    std::span<const Sequence> batch, std::span<const ContextMemory<float>> contexts, const Pulse& pulse, GradientPath path,
    common::WorkerPool* pool = nullptr, BatchShare* share = nullptr, StepObserver* observer = nullptr, StepSpill* spill = nullptr) {
  return batch_gradients<float>(registry, cfg, params, batch, contexts, pulse, path, pool, share, observer, spill);
}

}  // namespace nl
