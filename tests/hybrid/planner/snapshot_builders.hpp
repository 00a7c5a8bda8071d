#pragma once
// Test-only builders for memory snapshots and kernels used across the hybrid planner/stream/graph tests.
#include <string>

#include "hybrid/memory/memory_types.hpp"
#include "hybrid/planner/kernel_model.hpp"

namespace hybrid::testing {

inline MemorySnapshot pressure_snapshot(float vram, float ram) {
  MemorySnapshot s;
  s.vram.pressure = vram;
  s.ram.pressure = ram;
  return s;
}

inline MemorySnapshot low_pressure() { return pressure_snapshot(0.2F, 0.1F); }

inline KernelProfile kernel(std::string name, KernelKind kind) {
  return KernelProfile{std::move(name), kind, 1000, 1000};
}

}  // namespace hybrid::testing
