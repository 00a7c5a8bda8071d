#include "nl/step_phases.hpp"

namespace nl {

std::string_view phase_name(StepPhase p) {
  switch (p) {
    case StepPhase::read_data: return "read data";
    case StepPhase::forward: return "forward";
    case StepPhase::backward: return "backward";
    case StepPhase::reduce: return "gradient reduction";
    case StepPhase::optimizer: return "clip+AdamW";
    case StepPhase::checkpoint: return "checkpoint save";
    case StepPhase::metrics: return "metrics write";
  }
  return "?";
}

}  // namespace nl
