#pragma once
// APX 13.3.1: the planner's rules, in the order it evaluates them.
#include <cstdint>

namespace hybrid {

enum class DecisionRule : std::uint8_t {
  gpu_not_available,        // rule 1
  kernel_not_gpu_friendly,  // rule 2
  tensor_on_ssd,            // rule 3
  high_vram_pressure,       // rule 4
  gpu_preferred,            // rule 5: nothing above fired
};

[[nodiscard]] const char* to_string(DecisionRule rule);  // "GpuNotAvailable", ...

}  // namespace hybrid
