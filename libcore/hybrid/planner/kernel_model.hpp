#pragma once
// APX 13.3.0: what a kernel looks like to the scheduler.
#include <cstdint>
#include <string>

namespace hybrid {

enum class KernelKind : std::uint8_t {
  ComputeHeavy,  // arithmetic-dominated
  MemoryBound,   // bandwidth/latency-dominated
  Small,         // launch overhead dominates
  Serial,        // does not parallelize
};

[[nodiscard]] const char* to_string(KernelKind kind);  // "ComputeHeavy", ...

struct KernelProfile {
  std::string name;
  KernelKind kind = KernelKind::Small;
  std::uint64_t estimated_flops = 0;
  std::uint64_t estimated_bytes = 0;

  // ComputeHeavy and MemoryBound kernels are worth a GPU launch; Small and Serial are not.
  [[nodiscard]] bool is_gpu_friendly() const;
};

}  // namespace hybrid
