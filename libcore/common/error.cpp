#include "common/error.hpp"

namespace common {

std::string Error::to_string() const {
  std::string out;
  if (!where_.file.empty()) {
    out += where_.file;
    if (where_.line > 0) out += ":" + std::to_string(where_.line);
    out += ": ";
  }
  if (!where_.json_path.empty()) out += where_.json_path + ": ";
  out += message_;
  return out;
}

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::io: return "io";
    case ErrorCode::malformed: return "malformed";
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::unsupported: return "unsupported";
  }
  return "unknown";
}

}  // namespace common
