#pragma once
// APX 13.3.0: where a kernel runs. CpuFallback is CPU chosen to protect the run, not by preference.
#include <cstdint>

namespace hybrid {

enum class ExecutionTarget : std::uint8_t { cpu, gpu, cpu_fallback };

[[nodiscard]] const char* to_string(ExecutionTarget target);  // "Cpu", "Gpu", "CpuFallback"

}  // namespace hybrid
