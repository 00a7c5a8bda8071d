#pragma once
// RAM probe: total and available memory and pressure from /proc/meminfo.
#include <optional>
#include <string_view>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

// Parses /proc/meminfo text ("MemTotal:  123 kB"). MemAvailable is preferred for free bytes,
// MemFree + Buffers + Cached when it is missing (old kernels). Malformed when MemTotal is absent.
[[nodiscard]] common::Result<RamCaps> parse_meminfo(std::string_view text);

// 1 - free/total, clamped to [0, 1]; absent when total is 0.
[[nodiscard]] std::optional<float> ram_pressure(const RamCaps& ram);

[[nodiscard]] common::Result<RamCaps> probe_ram(common::FileSystem& fs);

}  // namespace hybrid
