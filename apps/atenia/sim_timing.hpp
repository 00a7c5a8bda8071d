#pragma once
// Modelled time for an `atenia simulate` run, replayed from its timeline events (as data: the
// text lines are only rendered from them, never parsed back). A task starts when
// its stream and its device are free and the previous task on each of its tensors is done.
// A kernel takes (on the GPU, the launch latency plus) max(flops / compute rate, bytes /
// memory bandwidth) of the device its stream runs on; a transfer takes bytes / the bandwidth
// of its link in its direction (plus the SSD latency for an SSD transfer; VRAM<->SSD crosses
// both links). Offload moves run on their link after the tick's tasks. Every task takes at
// least kMinTaskUs so each one is visible on a trace. Durations are in microseconds.
#include <cstdint>
#include <string>
#include <vector>

#include "hybrid/graph/batch_scenario.hpp"
#include "hybrid/streams/timeline_event.hpp"
#include "sim_rates.hpp"

namespace atenia::cli {

inline constexpr double kMinTaskUs = 0.001;  // 1 ns

struct TimedTask {
  std::size_t tick = 0;
  std::string stream;  // "Cpu", "Gpu", "SsdPrefetch"; empty for an offload move
  std::string device;  // "CPU", "GPU", "RAM<->VRAM", "RAM<->SSD"
  std::string task;    // the node's name, "move:<from>-><to>:<id>", "prefetch:<id>" or "offload:<from>-><to>:<id>"
  std::string label;   // trace slice name: "matmul", "move t1 ram->vram", "offload t1 ram->ssd"
  std::string cat;     // "compute", "transfer" or "offload"
  std::uint64_t flops = 0;
  std::uint64_t bytes = 0;
  std::string rate;    // the rate that bounded it ("gpu_flops", "ram_to_vram", "vram_to_ram+ram_to_ssd", ...)
  double start_us = 0;
  double dur_us = 0;
  std::string line;    // the timeline line it models
};

struct TimedTick {
  std::size_t tick = 0;
  std::string name;  // the TICK_START line after "TICK_START "
  double start_us = 0;
  double dur_us = 0;
  bool stopped = false;  // the run ended inside this tick (an offload failure)
  std::string line;      // the TICK_END line
};

struct SimTiming {
  std::vector<TimedTask> tasks;
  std::vector<TimedTick> ticks;
  double total_us = 0;
};

[[nodiscard]] SimTiming model_timing(const hybrid::BatchScenario& scenario,
                                     const std::vector<hybrid::TimelineEvent>& timeline,
                                     const SimRates& rates);

}  // namespace atenia::cli
