#pragma once
// APX 13.3.0: what a kernel looks like to the scheduler.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hybrid {

enum class KernelKind : std::uint8_t {
  compute_heavy,  // arithmetic-dominated
  memory_bound,   // bandwidth/latency-dominated
  small,          // launch overhead dominates
  serial,         // does not parallelize
};

[[nodiscard]] const char* to_string(KernelKind kind);  // "ComputeHeavy", ...
// Accepts the to_string names and their snake_case forms ("compute_heavy", "memory_bound", "small", "serial").
[[nodiscard]] std::optional<KernelKind> parse_kernel_kind(std::string_view text);

struct KernelProfile {
  std::string name;
  KernelKind kind = KernelKind::small;
  std::uint64_t estimated_flops = 0;
  std::uint64_t estimated_bytes = 0;

  // ComputeHeavy and MemoryBound kernels are worth a GPU launch; Small and Serial are not.
  [[nodiscard]] bool is_gpu_friendly() const;
};

}  // namespace hybrid
