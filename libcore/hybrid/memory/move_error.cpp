#include "hybrid/memory/move_error.hpp"

namespace hybrid {

const char* to_string(MoveError::Kind kind) {
  switch (kind) {
    case MoveError::Kind::Unsupported: return "Unsupported";
    case MoveError::Kind::Io: return "Io";
    case MoveError::Kind::BackendUnavailable: return "BackendUnavailable";
  }
  return "Unknown";
}

std::string to_string(const MoveError& e) { return std::string(to_string(e.kind)) + ": " + e.message; }

common::Error to_common_error(const MoveError& e) {
  switch (e.kind) {
    case MoveError::Kind::Io: return common::Error::io(e.message);
    case MoveError::Kind::BackendUnavailable: return common::Error::unsupported(e.message);
    case MoveError::Kind::Unsupported: break;
  }
  return common::Error::invalid_argument(e.message);
}

}  // namespace hybrid
