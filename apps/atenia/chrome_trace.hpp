#pragma once
// The simulate run as Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
// Process "streams" has one track per stream (Cpu, Gpu, SsdPrefetch) and one for ticks;
// process "devices" one per device (CPU, GPU, RAM<->VRAM, RAM<->SSD). Every RUN of the
// timeline is a slice on its stream and on the device that does the work, named by the node
// ("matmul") or the tensor ("move t1 ram->vram"); offload moves are slices on RAM<->SSD /
// RAM<->VRAM. Counters "ram pressure" / "vram pressure" follow the tick snapshots. Times are
// the modelled ones (sim_timing.hpp); each slice's args name the rate that bounded it.
#include <string>
#include <vector>

#include "hybrid/graph/batch_scenario.hpp"
#include "sim_timing.hpp"

namespace atenia::cli {

[[nodiscard]] std::string chrome_trace_json(const hybrid::BatchScenario& scenario, const SimTiming& timing);

}  // namespace atenia::cli
