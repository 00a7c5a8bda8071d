#pragma once
// Where a training step's time goes, for a caller that draws it (nltrain train --trace-out): the
// trainer and batch_gradients tell a StepObserver when each phase of a step began and ended on a
// steady clock, and the caller adds the phases it runs itself (reading data, writing metrics,
// saving a checkpoint). Observing only reads the clock: no value a step computes depends on it,
// so a run with an observer trains the same bits as one without.
// Tier moves (a tape cache spilled to disk under a memory budget, restored for the backward)
// are reported through the same observer, so they land on the same timeline.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nl {

using StepClock = std::chrono::steady_clock;

enum class StepPhase : unsigned char { read_data, forward, backward, reduce, optimizer, checkpoint, metrics };

// "read data", "forward", "backward", "gradient reduction", "clip+AdamW", "checkpoint save",
// "metrics write".
[[nodiscard]] std::string_view phase_name(StepPhase p);

enum class TierDirection : unsigned char { spill, restore };  // RAM -> disk, disk -> RAM

struct TierMove {
  std::string what;  // the tensor or cache moved ("tape cache of stream 1")
  std::uint64_t bytes = 0;
  TierDirection direction = TierDirection::spill;
  StepClock::time_point begin, end;
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // `stream`: the batch stream the phase ran for (forward and backward; each on its stream's
  // worker thread, so an observer takes calls from several threads at once); nullopt: the whole
  // step, on the thread that runs the step.
  virtual void phase(StepPhase p, std::optional<std::size_t> stream, StepClock::time_point begin, StepClock::time_point end) = 0;
  virtual void tier_move(const TierMove& m) = 0;
};

// Times from construction to end() (or destruction) as one phase for `observer`; nothing at all
// when it is null.
class TimedPhase {
 public:
  TimedPhase(StepObserver* observer, StepPhase p, std::optional<std::size_t> stream = std::nullopt)
      : observer_(observer), phase_(p), stream_(stream), begin_(observer != nullptr ? StepClock::now() : StepClock::time_point{}) {}
  ~TimedPhase() { end(); }
  TimedPhase(const TimedPhase&) = delete;
  TimedPhase& operator=(const TimedPhase&) = delete;
  void end() {
    if (observer_ == nullptr) return;
    observer_->phase(phase_, stream_, begin_, StepClock::now());
    observer_ = nullptr;
  }

 private:
  StepObserver* observer_;
  StepPhase phase_;
  std::optional<std::size_t> stream_;
  StepClock::time_point begin_;
};

}  // namespace nl
