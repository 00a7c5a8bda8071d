#include "hybrid/autograd/autograd_trace.hpp"

namespace hybrid {

const char* to_string(GradMoveRecord::Kind kind) {
  switch (kind) {
    case GradMoveRecord::Kind::planned: return "Planned";
    case GradMoveRecord::Kind::applied: return "Applied";
    case GradMoveRecord::Kind::skipped: return "Skipped";
    case GradMoveRecord::Kind::failed: return "Failed";
  }
  return "Unknown";
}

}  // namespace hybrid
