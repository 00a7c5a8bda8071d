#pragma once
// APX 13.8.0: SSD-backed cache of blobs with integrity metadata.
// Layout: <root>/<kind>/<key>.bin (payload) and <root>/<kind>/<key>.meta (key=value text).
//
// Crash safety: an entry is replaced in three atomic steps, each through
// common::write_file_atomic / rename: (1) <key>.bin.next holds the new payload, (2) <key>.meta
// is replaced -- the commit point -- (3) <key>.bin.next is renamed over <key>.bin. A reader
// whose .bin does not match the .meta but whose .bin.next does returns .bin.next (a crash hit
// between 2 and 3). So after a failure at any write, fsync or rename an entry reads back
// as the old or the new version, never a torn mix.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_system.hpp"
#include "hybrid/cache/cache_types.hpp"

namespace hybrid {

// Largest payload one entry may hold, enforced on save and, from the .meta, before any read.
inline constexpr std::size_t kMaxBlobBytes = std::size_t{1} << 30;

class PersistentHybridCache {
 public:
  explicit PersistentHybridCache(std::string root, common::FileSystem& fs = common::real_file_system());

  [[nodiscard]] const std::string& root() const { return root_; }

  // Creates the root and the three kind directories. io when the root is a file or unwritable.
  [[nodiscard]] CacheResult<void> ensure_root() const;

  // already_exists (nothing touched) when the entry exists and !overwrite. invalid_key for an
  // empty key, "." / "..", or one holding '/' , '\\' or NUL, or longer than 200 bytes.
  [[nodiscard]] CacheResult<void> put_blob(CacheKind kind, std::string_view key, std::span<const std::uint8_t> bytes,
                                           std::uint64_t created_unix, bool overwrite) const;

  // not_found when .meta or the payload is missing; corrupt on bad meta, length or checksum.
  [[nodiscard]] CacheResult<std::vector<std::uint8_t>> get_blob(CacheKind kind, std::string_view key) const;

  // Checks the payload's length and checksum against the .meta reading 1 MiB at a time, so
  // memory stays bounded whatever the blob's size; the verified length on success.
  [[nodiscard]] CacheResult<std::size_t> verify_blob(CacheKind kind, std::string_view key) const;

  // The parsed .meta (no payload check).
  [[nodiscard]] CacheResult<CacheEntryMeta> get_meta(CacheKind kind, std::string_view key) const;

  // Both .meta and a payload (.bin, or .bin.next after an interrupted replace) are present.
  [[nodiscard]] bool exists(CacheKind kind, std::string_view key) const;

  // Removes the entry's files; a missing entry is success.
  [[nodiscard]] CacheResult<void> remove(CacheKind kind, std::string_view key) const;

  [[nodiscard]] std::string bin_path(CacheKind kind, std::string_view key) const;
  [[nodiscard]] std::string meta_path(CacheKind kind, std::string_view key) const;

  [[nodiscard]] common::FileSystem& file_system() const { return *fs_; }

 private:
  std::string root_;
  common::FileSystem* fs_;
};

// The deterministic keys of 13.8.1/13.8.2: "tensor:<id>:len<bytes>", "grad:<id>:len<bytes>" for
// an id of at most 150 bytes without '/', '\\' or NUL; any other id (a tensor name such as
// "levels/0/W_K") is a name, not a path: "tensor%:<id percent-encoded outside [A-Za-z0-9._-]>:len<bytes>",
// or "tensor#:<SHA-256 hex of the id>:len<bytes>" when the encoding is over 150 bytes. The key
// is always one safe file name; the id itself is kept in the manifest.
[[nodiscard]] std::string tensor_cache_key(std::string_view id, std::size_t len_bytes);
[[nodiscard]] std::string gradient_cache_key(std::string_view id, std::size_t len_bytes);

}  // namespace hybrid
