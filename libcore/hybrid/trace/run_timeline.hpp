#pragma once
// A run's work on Chrome trace tracks (trace_events.hpp), laid out as atenia simulate lays out
// its own: process 1 "<title>: streams" with one track per stream, process 2 "<title>: devices"
// with one track per device, and on it a "tier moves" track, named when the first move comes,
// for bytes moved between memory tiers (a spill under a memory budget, a restore). Times are
// microseconds from the run's start, as the caller measured them. The events gather in
// events() until the caller hands them to a TraceFile, which takes them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/trace/trace_events.hpp"

namespace hybrid {

struct TierMoveSlice {
  std::string what;  // the tensor or cache moved
  std::uint64_t bytes = 0;
  MemoryTier from = MemoryTier::ram, to = MemoryTier::ssd;
  double start_us = 0, dur_us = 0;
};

class RunTimeline {
 public:
  using Args = std::vector<std::pair<std::string, std::string>>;
  // Names the processes and the tracks: streams "<stream_label> 0", "<stream_label> 1", ...
  RunTimeline(const std::string& title, const std::string& stream_label, std::size_t streams, const std::vector<std::string>& devices);

  void on_stream(std::size_t stream, const std::string& name, const std::string& category, double start_us, double dur_us,
                 const Args& args = {});
  void on_device(std::size_t device, const std::string& name, const std::string& category, double start_us, double dur_us,
                 const Args& args = {});
  // "<what> <from>-><to>" on the tier moves track, its bytes and tiers as args.
  void tier_move(const TierMoveSlice& m);

  [[nodiscard]] TraceEvents& events() { return events_; }
  [[nodiscard]] int tier_move_track() const { return tier_tid_; }

 private:
  TraceEvents events_;
  int tier_tid_;
  bool tier_named_ = false;
};

}  // namespace hybrid
