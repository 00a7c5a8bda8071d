#include "hybrid/checkpoint/checkpoint_types.hpp"

namespace hybrid {

const char* to_string(CheckpointError::Kind kind) {
  switch (kind) {
    case CheckpointError::Kind::Io: return "Io";
    case CheckpointError::Kind::InvalidFormat: return "InvalidFormat";
    case CheckpointError::Kind::MissingBlob: return "MissingBlob";
  }
  return "Unknown";
}

common::Error to_common_error(const CheckpointError& e) {
  return e.kind == CheckpointError::Kind::InvalidFormat ? common::Error::malformed(e.message)
                                                        : common::Error::io(e.message);
}

CheckpointError from_cache_error(const CacheError& e, const std::string& id) {
  const std::string msg = "entry '" + id + "': " + to_string(e);
  switch (e.kind) {
    case CacheError::Kind::NotFound:
    case CacheError::Kind::Io: return CheckpointError::missing_blob(msg);
    default: return CheckpointError::invalid_format(msg);
  }
}

std::string manifest_path(const std::string& root) { return root + "/" + kManifestFileName; }

}  // namespace hybrid
