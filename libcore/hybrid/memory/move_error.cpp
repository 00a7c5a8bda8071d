#include "hybrid/memory/move_error.hpp"

namespace hybrid {

namespace {

const char* move_error_label(common::ErrorCode code) {
  switch (code) {
    case common::ErrorCode::io: return "Io";
    case common::ErrorCode::unsupported: return "BackendUnavailable";
    case common::ErrorCode::malformed:
    case common::ErrorCode::invalid_argument: break;
  }
  return "Unsupported";
}

}  // namespace

std::string move_error_text(const common::Error& e) {
  return std::string(move_error_label(e.code())) + ": " + e.message();
}

}  // namespace hybrid
