#pragma once
// APX 13.9.0/13.9.1: what a checkpoint records per tensor or gradient, and how it fails.
// A checkpoint holds ids, tiers, lengths, cache references and placement hints; the bytes
// stay in the PersistentHybridCache.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/expected.hpp"
#include "hybrid/cache/cache_types.hpp"
#include "hybrid/memory/memory_tier.hpp"

namespace hybrid {

struct CheckpointEntry {
  std::string id;
  bool is_grad = false;
  MemoryTier tier = MemoryTier::ram;
  std::optional<CacheKind> cache_kind;  // present exactly when cache_key is
  std::optional<std::string> cache_key;
  std::size_t len_bytes = 0;
  std::optional<MemoryTier> desired_tier;        // 13.9.1
  std::optional<std::string> last_plan_summary;  // 13.9.1, one line
  friend bool operator==(const CheckpointEntry&, const CheckpointEntry&) = default;
};

struct HybridCheckpoint {
  std::uint32_t version = 2;
  std::uint64_t created_unix = 0;
  std::vector<CheckpointEntry> entries;  // ordered by (is_grad, id)
  friend bool operator==(const HybridCheckpoint&, const HybridCheckpoint&) = default;
};

// The manifest format written; v1 (an FNV-1a trailer) is still read.
inline constexpr std::uint32_t kCheckpointVersion = 2;
inline constexpr std::uint32_t kCheckpointVersionV1 = 1;
inline constexpr const char* kManifestFileName = "checkpoint.meta";

// Why a checkpoint call failed: a blob the manifest names is gone (missing_blob) is told apart from
// the storage failing (io) and from a manifest or blob that does not parse (invalid_format).
enum class CheckpointFailure : std::uint8_t { io, invalid_format, missing_blob };

// A common::Error with its CheckpointFailure; `return e;` into a common::Result keeps kind and
// message. The kind follows the failure: io and missing_blob -> io, invalid_format -> malformed.
class CheckpointError : public common::Error {
 public:
  CheckpointError(CheckpointFailure failure, std::string message);  // one line, names the file (and line)

  static CheckpointError io(std::string m) { return {CheckpointFailure::io, std::move(m)}; }
  static CheckpointError invalid_format(std::string m) { return {CheckpointFailure::invalid_format, std::move(m)}; }
  static CheckpointError missing_blob(std::string m) { return {CheckpointFailure::missing_blob, std::move(m)}; }

  [[nodiscard]] CheckpointFailure kind() const { return kind_; }

 private:
  CheckpointFailure kind_;
};

[[nodiscard]] const char* to_string(CheckpointFailure failure);  // "Io", "InvalidFormat", "MissingBlob"

template <typename T>
using CheckpointResult = common::Expected<T, CheckpointError>;

// The adapter of 13.9.0: not_found and io (storage at fault) -> missing_blob; corrupt, invalid_key
// and the rest -> invalid_format. The message is "entry '<id>': <to_string(e)>".
[[nodiscard]] CheckpointError from_cache_error(const CacheError& e, const std::string& id);

[[nodiscard]] std::string manifest_path(const std::string& root);

}  // namespace hybrid
