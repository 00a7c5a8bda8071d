#include "hybrid/planner/kernel_model.hpp"

namespace hybrid {

const char* to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::compute_heavy: return "ComputeHeavy";
    case KernelKind::memory_bound: return "MemoryBound";
    case KernelKind::small: return "Small";
    case KernelKind::serial: return "Serial";
  }
  return "Unknown";
}

std::optional<KernelKind> parse_kernel_kind(std::string_view text) {
  struct Name {
    std::string_view camel;
    std::string_view snake;
    KernelKind kind;
  };
  constexpr Name kNames[] = {{"ComputeHeavy", "compute_heavy", KernelKind::compute_heavy},
                             {"MemoryBound", "memory_bound", KernelKind::memory_bound},
                             {"Small", "small", KernelKind::small},
                             {"Serial", "serial", KernelKind::serial}};
  for (const auto& n : kNames) {
    if (text == n.camel || text == n.snake) return n.kind;
  }
  return std::nullopt;
}

bool KernelProfile::is_gpu_friendly() const {
  switch (kind) {
    case KernelKind::compute_heavy:
    case KernelKind::memory_bound: return true;
    case KernelKind::small:
    case KernelKind::serial: return false;
  }
  return false;
}

}  // namespace hybrid
