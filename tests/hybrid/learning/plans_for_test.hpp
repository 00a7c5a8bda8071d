#pragma once
// Warm-start plans the learning tests feed the trainer: one leaning GPU, one leaning CPU.
#include "hybrid/checkpoint/warm_start.hpp"

namespace testplans {

inline hybrid::WarmStartPlan gpu_plan() {
  hybrid::WarmStartPlan p;
  p.decisions.push_back({"w", false, hybrid::MemoryTier::ram, hybrid::MemoryTier::vram,
                         hybrid::WarmHintPromote{hybrid::MemoryTier::vram}, "Desired VRAM and GPU available"});
  p.summary = "warm_start: keep=0 promote=1 degrade=0";
  return p;
}

inline hybrid::WarmStartPlan cpu_plan() {
  hybrid::WarmStartPlan p;
  p.decisions.push_back({"w", false, hybrid::MemoryTier::ram, std::nullopt, hybrid::WarmKeep{}, "No desired tier hint"});
  p.summary = "warm_start: keep=1 promote=0 degrade=0";
  return p;
}

}  // namespace testplans
