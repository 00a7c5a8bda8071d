#include "hybrid/cache/cache_types.hpp"

namespace hybrid {

const char* to_string(CacheKind kind) {
  switch (kind) {
    case CacheKind::tensor: return "tensor";
    case CacheKind::gradient: return "gradient";
    case CacheKind::kernel_meta: return "kernel_meta";
  }
  return "unknown";
}

std::optional<CacheKind> parse_cache_kind(std::string_view text) {
  if (text == "tensor") return CacheKind::tensor;
  if (text == "gradient") return CacheKind::gradient;
  if (text == "kernel_meta" || text == "kernelmeta") return CacheKind::kernel_meta;
  return std::nullopt;
}

namespace {

common::ErrorCode error_code(CacheFailure failure) {
  switch (failure) {
    case CacheFailure::io: return common::ErrorCode::io;
    case CacheFailure::corrupt: return common::ErrorCode::malformed;
    case CacheFailure::not_found:
    case CacheFailure::already_exists:
    case CacheFailure::invalid_key: break;
  }
  return common::ErrorCode::invalid_argument;
}

}  // namespace

CacheError::CacheError(CacheFailure failure, std::string message)
    : common::Error(error_code(failure), std::move(message)), kind_(failure) {}

const char* to_string(CacheFailure failure) {
  switch (failure) {
    case CacheFailure::io: return "Io";
    case CacheFailure::not_found: return "NotFound";
    case CacheFailure::corrupt: return "Corrupt";
    case CacheFailure::already_exists: return "AlreadyExists";
    case CacheFailure::invalid_key: return "InvalidKey";
  }
  return "Unknown";
}

std::string to_string(const CacheError& e) { return std::string(to_string(e.kind())) + ": " + e.message(); }

}  // namespace hybrid
