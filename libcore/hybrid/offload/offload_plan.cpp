#include "hybrid/offload/offload_plan.hpp"

namespace hybrid {

const char* to_string(OffloadAction::Kind kind) {
  switch (kind) {
    case OffloadAction::Kind::MoveToRam: return "MoveToRam";
    case OffloadAction::Kind::MoveToSsd: return "MoveToSsd";
  }
  return "Unknown";
}

}  // namespace hybrid
