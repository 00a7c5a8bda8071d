#pragma once
// The simulate run as Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
// Process "streams" has one track per stream (Cpu, Gpu, SsdPrefetch) and one for ticks;
// process "devices" one per device (CPU, GPU, RAM<->VRAM, RAM<->SSD). Every RUN of the
// timeline is a slice on its stream and on the device that does the work, named by the node
// ("matmul") or the tensor ("move t1 ram->vram"); offload moves are slices on RAM<->SSD /
// RAM<->VRAM. Counters "ram pressure" / "vram pressure" follow the tick snapshots.
//
// Time is modelled, not measured: a task starts when its stream is free and the previous
// task on any of its tensors has finished; a kernel takes max(flops / rate, bytes /
// memory bandwidth) on its device and a transfer bytes / link bandwidth, with the rates
// below (documented in atenia(1)); at least 1 microsecond each.
#include <string>
#include <vector>

#include "hybrid/graph/batch_scenario.hpp"

namespace atenia::cli {

inline constexpr double kCpuFlopsPerUs = 100e3;       // 100 GFLOP/s
inline constexpr double kGpuFlopsPerUs = 10e6;        // 10 TFLOP/s
inline constexpr double kCpuMemBytesPerUs = 20e3;     // 20 GB/s
inline constexpr double kGpuMemBytesPerUs = 1e6;      // 1 TB/s
inline constexpr double kPcieBytesPerUs = 16e3;       // RAM<->VRAM, 16 GB/s
inline constexpr double kSsdBytesPerUs = 2e3;         // RAM<->SSD, 2 GB/s

[[nodiscard]] std::string chrome_trace_json(const hybrid::BatchScenario& scenario,
                                            const std::vector<std::string>& timeline);

}  // namespace atenia::cli
