#include "hybrid/offload/offload_plan.hpp"

namespace hybrid {

const char* to_string(OffloadAction::Kind kind) {
  switch (kind) {
    case OffloadAction::Kind::move_to_ram: return "MoveToRam";
    case OffloadAction::Kind::move_to_ssd: return "MoveToSsd";
  }
  return "Unknown";
}

}  // namespace hybrid
