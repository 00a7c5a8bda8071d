#pragma once
// APX 13.9.0/13.9.1: checkpoint.meta, key=value lines in blank-line separated blocks:
//
//   version=2              header block (1: format v1, still read)
//   created_unix=<u64>
//   entry_count=<n>
//
//   id=<id>                one block per entry, ordered by (is_grad, id)
//   is_grad=0|1
//   tier=ram|ssd|vram|cpu
//   len=<bytes>
//   cache_kind=tensor|gradient|kernel_meta|none
//   cache_key=<key>|none
//   desired_tier=ram|ssd|vram|cpu|none      (optional on read: older manifests)
//   plan_summary=<one line>|none            (optional on read)
//
//   manifest_len=<bytes above this line>    integrity trailer (ours; optional on read so
//   manifest_crc32c=<CRC-32C of them>       manifests written by hand or by 13.9.0 load)
//
// Format v1 (version=1) is the same but for the trailer's checksum: manifest_checksum32, FNV-1a.
//
// The parser is strict: missing, unknown or repeated keys, unknown tiers or cache kinds, a
// cache_kind without a cache_key (or the reverse), a wrong entry_count, a repeated id or a
// trailer that does not match are invalid_format naming the line.
#include <string>
#include <string_view>

#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"

namespace hybrid {

inline constexpr std::size_t kMaxManifestBytes = std::size_t{64} << 20;

// Fails (invalid_format) only for ids that cannot be written on one line.
[[nodiscard]] CheckpointResult<std::string> format_manifest(const HybridCheckpoint& checkpoint);

// `source` prefixes error messages ("<source>:<line>: ...").
[[nodiscard]] CheckpointResult<HybridCheckpoint> parse_manifest(std::string_view text, const std::string& source);

// Reads <root>/checkpoint.meta: io when absent or unreadable, else parse_manifest.
[[nodiscard]] CheckpointResult<HybridCheckpoint> read_manifest(common::FileSystem& fs, const std::string& root);

// Creates `root`, then replaces <root>/checkpoint.meta atomically.
[[nodiscard]] CheckpointResult<void> write_manifest(common::FileSystem& fs, const std::string& root,
                                                    const HybridCheckpoint& checkpoint);

}  // namespace hybrid
