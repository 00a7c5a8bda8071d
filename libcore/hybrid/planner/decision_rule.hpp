#pragma once
// APX 13.3.1: the planner's rules, in the order it evaluates them.
#include <cstdint>

namespace hybrid {

enum class DecisionRule : std::uint8_t {
  GpuNotAvailable,       // rule 1
  KernelNotGpuFriendly,  // rule 2
  TensorOnSsd,           // rule 3
  HighVramPressure,      // rule 4
  GpuPreferred,          // rule 5: nothing above fired
};

[[nodiscard]] const char* to_string(DecisionRule rule);  // "GpuNotAvailable", ...

}  // namespace hybrid
