#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

const char* to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::ComputeHeavy: return "ComputeHeavy";
    case KernelKind::MemoryBound: return "MemoryBound";
    case KernelKind::Small: return "Small";
    case KernelKind::Serial: return "Serial";
  }
  return "Unknown";
}

std::optional<KernelKind> parse_kernel_kind(std::string_view text) {
  struct Name {
    std::string_view camel;
    std::string_view snake;
    KernelKind kind;
  };
  constexpr Name kNames[] = {{"ComputeHeavy", "compute_heavy", KernelKind::ComputeHeavy},
                             {"MemoryBound", "memory_bound", KernelKind::MemoryBound},
                             {"Small", "small", KernelKind::Small},
                             {"Serial", "serial", KernelKind::Serial}};
  for (const auto& n : kNames) {
    if (text == n.camel || text == n.snake) return n.kind;
  }
  return std::nullopt;
}

bool KernelProfile::is_gpu_friendly() const {
  switch (kind) {
    case KernelKind::ComputeHeavy:
    case KernelKind::MemoryBound: return true;
    case KernelKind::Small:
    case KernelKind::Serial: return false;
  }
  return false;
}

}  // namespace hybrid
