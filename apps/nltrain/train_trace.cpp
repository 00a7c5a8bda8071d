#include "train_trace.hpp"

#include <chrono>

#include "common/file_system.hpp"

namespace nltrain::cli {
namespace {

constexpr std::size_t kCpu = 0;  // the device track

common::Error named(const common::Error& e) { return common::Error(e.code(), "--trace-out: " + e.to_string()); }

}  // namespace

common::Result<std::unique_ptr<TrainTrace>> TrainTrace::open(const std::string& path, std::size_t streams) {
  auto file = hybrid::TraceFile::open(common::real_file_system(), path);
  if (!file.ok()) return named(file.error());
  return std::unique_ptr<TrainTrace>(new TrainTrace(std::move(*file), streams));
}

TrainTrace::TrainTrace(hybrid::TraceFile file, std::size_t streams)
    : file_(std::move(file)), timeline_("nltrain train", "stream", streams, {"cpu"}), start_(nl::StepClock::now()) {}

// Whole nanoseconds, then microseconds: a slice's end minus its start in doubles would print as
// 2398.615999999998 where the clock said 2398616 ns.
double TrainTrace::us(nl::StepClock::time_point t) const {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t - start_).count()) / 1e3;
}

double TrainTrace::us(nl::StepClock::time_point from, nl::StepClock::time_point to) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count()) / 1e3;
}

void TrainTrace::phase(nl::StepPhase p, std::optional<std::size_t> stream, nl::StepClock::time_point begin,
                       nl::StepClock::time_point end) {
  const std::lock_guard lock(mutex_);
  pending_.push_back({p, stream, begin, end});
}

void TrainTrace::tier_move(const nl::TierMove& m) {
  const bool spill = m.direction == nl::TierDirection::spill;
  const hybrid::MemoryTier disk = hybrid::MemoryTier::ssd, ram = hybrid::MemoryTier::ram;
  const std::lock_guard lock(mutex_);
  timeline_.tier_move({m.what, m.bytes, spill ? ram : disk, spill ? disk : ram, us(m.begin), us(m.begin, m.end)});
}

void TrainTrace::draw(const Timed& t, const hybrid::RunTimeline::Args& args) {
  const std::string name(nl::phase_name(t.phase));
  const double at = us(t.begin), dur = us(t.begin, t.end);
  if (t.stream) {
    timeline_.on_stream(*t.stream, name, "phase", at, dur, args);
  } else {
    timeline_.on_device(kCpu, name, "phase", at, dur, args);
  }
}

common::Status TrainTrace::flush() {
  if (common::Status s = file_.append(timeline_.events()); !s.ok()) return named(s.error());
  return {};
}

common::Status TrainTrace::end_step(std::uint64_t n, nl::StepClock::time_point begin) {
  const auto end = nl::StepClock::now();
  const std::lock_guard lock(mutex_);
  const hybrid::RunTimeline::Args args{{"step", std::to_string(n)}};
  timeline_.on_device(kCpu, "step " + std::to_string(n), "step", us(begin), us(begin, end), args);
  for (const Timed& t : pending_) draw(t, args);
  pending_.clear();
  return flush();
}

common::Status TrainTrace::finish() {
  const std::lock_guard lock(mutex_);
  for (const Timed& t : pending_) draw(t, {});
  pending_.clear();
  if (common::Status s = flush(); !s.ok()) return s;
  if (common::Status s = file_.finish(); !s.ok()) return named(s.error());
  return {};
}

}  // namespace nltrain::cli
