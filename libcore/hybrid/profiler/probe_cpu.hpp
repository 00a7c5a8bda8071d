#pragma once
// CPU probe: core counts from /proc/cpuinfo (physical = distinct (physical id, core id) pairs)
// and the online CPU count; SIMD flags from cpuid on x86, else from /proc/cpuinfo "flags".
#include <string_view>

#include "common/file_system.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

// Parses /proc/cpuinfo text. SIMD flags are filtered to the vector extensions we care about.
[[nodiscard]] CpuCaps parse_cpuinfo(std::string_view text);

// Reads the real machine. Never fails: fields that cannot be read stay at their fallback
// (logical cores from the scheduler, physical = logical when topology is unknown).
[[nodiscard]] CpuCaps probe_cpu(common::FileSystem& fs);

}  // namespace hybrid
