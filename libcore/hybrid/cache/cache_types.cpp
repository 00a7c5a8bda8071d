#include "hybrid/cache/cache_types.hpp"

namespace hybrid {

const char* to_string(CacheKind kind) {
  switch (kind) {
    case CacheKind::Tensor: return "tensor";
    case CacheKind::Gradient: return "gradient";
    case CacheKind::KernelMeta: return "kernel_meta";
  }
  return "unknown";
}

std::optional<CacheKind> parse_cache_kind(std::string_view text) {
  if (text == "tensor") return CacheKind::Tensor;
  if (text == "gradient") return CacheKind::Gradient;
  if (text == "kernel_meta" || text == "kernelmeta") return CacheKind::KernelMeta;
  return std::nullopt;
}

const char* to_string(CacheError::Kind kind) {
  switch (kind) {
    case CacheError::Kind::Io: return "Io";
    case CacheError::Kind::NotFound: return "NotFound";
    case CacheError::Kind::Corrupt: return "Corrupt";
    case CacheError::Kind::AlreadyExists: return "AlreadyExists";
    case CacheError::Kind::InvalidKey: return "InvalidKey";
  }
  return "Unknown";
}

std::string to_string(const CacheError& e) { return std::string(to_string(e.kind)) + ": " + e.message; }

common::Error to_common_error(const CacheError& e) {
  switch (e.kind) {
    case CacheError::Kind::Io: return common::Error::io(e.message);
    case CacheError::Kind::Corrupt: return common::Error::malformed(e.message);
    default: break;
  }
  return common::Error::invalid_argument(e.message);
}

}  // namespace hybrid
