#pragma once
// The decisions the learning tests feed the trainer: one on the GPU (a tensor promoted to VRAM),
// one on the CPU (a tensor kept where it was).
#include "hybrid/learning/episode.hpp"

namespace testplans {

inline hybrid::DecisionSummary gpu_plan() {
  hybrid::DecisionSummary s;
  s.backend = hybrid::BackendChoice::gpu;
  s.promote_count = 1;
  return s;
}

inline hybrid::DecisionSummary cpu_plan() {
  hybrid::DecisionSummary s;
  s.keep_count = 1;
  return s;
}

}  // namespace testplans
