#include "hybrid/autograd/autograd_trace.hpp"

namespace hybrid {

const char* to_string(GradMoveRecord::Kind kind) {
  switch (kind) {
    case GradMoveRecord::Kind::Planned: return "Planned";
    case GradMoveRecord::Kind::Applied: return "Applied";
    case GradMoveRecord::Kind::Skipped: return "Skipped";
    case GradMoveRecord::Kind::Failed: return "Failed";
  }
  return "Unknown";
}

}  // namespace hybrid
