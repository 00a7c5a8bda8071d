#include "hybrid/checkpoint/checkpoint_types.hpp"

namespace hybrid {

CheckpointError::CheckpointError(CheckpointFailure failure, std::string message)
    : common::Error(failure == CheckpointFailure::invalid_format ? common::ErrorCode::malformed : common::ErrorCode::io,
                    std::move(message)),
      kind_(failure) {}

const char* to_string(CheckpointFailure failure) {
  switch (failure) {
    case CheckpointFailure::io: return "Io";
    case CheckpointFailure::invalid_format: return "InvalidFormat";
    case CheckpointFailure::missing_blob: return "MissingBlob";
  }
  return "Unknown";
}

CheckpointError from_cache_error(const CacheError& e, const std::string& id) {
  const std::string msg = "entry '" + id + "': " + to_string(e);
  switch (e.kind()) {
    case CacheFailure::not_found:
    case CacheFailure::io: return CheckpointError::missing_blob(msg);
    case CacheFailure::corrupt:
    case CacheFailure::already_exists:
    case CacheFailure::invalid_key: break;
  }
  return CheckpointError::invalid_format(msg);
}

std::string manifest_path(const std::string& root) { return root + "/" + kManifestFileName; }

}  // namespace hybrid
