#pragma once
// nltrain train --trace-out F: the run's steps as one Chrome trace (Perfetto, chrome://tracing),
// drawn on hybrid's run timeline as atenia simulate draws its own. Process "nltrain train:
// streams" has one track per batch stream, holding each step's forward and backward of that
// stream; process "nltrain train: devices" has the device track "cpu", holding each step ("step
// n") and its phases that run for the whole batch (read data, gradient reduction, clip+AdamW,
// metrics write, checkpoint save), and a "tier moves" track once something moves between memory
// tiers. Times are microseconds from the trace's opening, on the steady clock; every slice but
// the final checkpoint's carries its step as an arg.
// The trace is streamed: each step's events go to the file when the step ends (end_step), so a
// run of any length holds one step's events at a time. The file is replaced atomically by
// finish() (hybrid/trace/trace_file.hpp); a run that ends in an error leaves no trace behind.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "hybrid/trace/run_timeline.hpp"
#include "hybrid/trace/trace_file.hpp"
#include "nl/step_phases.hpp"

namespace nltrain::cli {

class TrainTrace final : public nl::StepObserver {
 public:
  // Refuses (io, naming --trace-out) a path TraceFile::open refuses; times count from now.
  [[nodiscard]] static common::Result<std::unique_ptr<TrainTrace>> open(const std::string& path, std::size_t streams);

  void phase(nl::StepPhase p, std::optional<std::size_t> stream, nl::StepClock::time_point begin,
             nl::StepClock::time_point end) override;
  void tier_move(const nl::TierMove& m) override;
  // Step n ran from `begin` to now: its slice and its phases go to the file.
  [[nodiscard]] common::Status end_step(std::uint64_t n, nl::StepClock::time_point begin);
  // The phases after the last step (the final checkpoint), then the trace is closed.
  [[nodiscard]] common::Status finish();

 private:
  struct Timed {
    nl::StepPhase phase;
    std::optional<std::size_t> stream;
    nl::StepClock::time_point begin, end;
  };
  TrainTrace(hybrid::TraceFile file, std::size_t streams);
  [[nodiscard]] double us(nl::StepClock::time_point t) const;  // since start_
  [[nodiscard]] static double us(nl::StepClock::time_point from, nl::StepClock::time_point to);
  void draw(const Timed& t, const hybrid::RunTimeline::Args& args);  // the lock held
  [[nodiscard]] common::Status flush();                               // the lock held

  std::mutex mutex_;  // phases come from the batch's worker threads
  hybrid::TraceFile file_;
  hybrid::RunTimeline timeline_;
  std::vector<Timed> pending_;  // the phases of the step under way
  nl::StepClock::time_point start_;
};

}  // namespace nltrain::cli
