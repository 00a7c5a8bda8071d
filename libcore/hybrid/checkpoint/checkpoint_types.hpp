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
  MemoryTier tier = MemoryTier::Ram;
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

struct CheckpointError {
  enum class Kind : std::uint8_t { Io, InvalidFormat, MissingBlob };
  Kind kind = Kind::Io;
  std::string message;  // one line, names the file (and line) where there is one

  static CheckpointError io(std::string m) { return {Kind::Io, std::move(m)}; }
  static CheckpointError invalid_format(std::string m) { return {Kind::InvalidFormat, std::move(m)}; }
  static CheckpointError missing_blob(std::string m) { return {Kind::MissingBlob, std::move(m)}; }
};

[[nodiscard]] const char* to_string(CheckpointError::Kind kind);  // "Io", "InvalidFormat", "MissingBlob"

// For apps: Io and MissingBlob -> io, InvalidFormat -> malformed.
[[nodiscard]] common::Error to_common_error(const CheckpointError& e);

template <typename T>
using CheckpointResult = common::Expected<T, CheckpointError>;

// The adapter of 13.9.0: NotFound and Io (storage at fault) -> MissingBlob; Corrupt, InvalidKey
// and the rest -> InvalidFormat.
[[nodiscard]] CheckpointError from_cache_error(const CacheError& e, const std::string& id);

[[nodiscard]] std::string manifest_path(const std::string& root);

}  // namespace hybrid
