#pragma once
// APX 13.2.0-13.2.3: the SSD tier's blob directory. All I/O goes through common::FileSystem;
// blobs are written atomically (tmp + fsync + rename + fsync dir) and verified on read.
#include <cstdint>
#include <span>
#include <string>

#include "common/file_system.hpp"
#include "hybrid/codec/compression_types.hpp"
#include "hybrid/memory/move_error.hpp"
#include "hybrid/memory/storage_backing.hpp"

namespace hybrid {

class SsdCache {
 public:
  explicit SsdCache(std::string dir, common::FileSystem& fs = common::real_file_system());

  // invalid_argument for an empty path; io when it cannot be created or is not a directory.
  [[nodiscard]] common::Status ensure_dir() const;
  [[nodiscard]] const std::string& dir() const { return dir_; }

  // "{dir}/tensor_<id>.bin" with characters outside [A-Za-z0-9_-] replaced by '_'. When any
  // was replaced, "-<8 hex of FNV-1a(id)>" is appended so "a/b" and "a_b" do not collide.
  [[nodiscard]] std::string blob_path(std::string_view tensor_id) const;

  // Raw write (CompressionKind::none). io on failure; the old file, if any, survives.
  [[nodiscard]] common::Status write_blob(const std::string& path, std::span<const std::uint8_t> data) const;
  // Encodes with `compression` (default parameters) and returns the metadata to read it back.
  [[nodiscard]] common::Result<CompressionMeta> write_blob(const std::string& path, std::span<const std::uint8_t> data,
                                                           CompressionKind compression) const;
  [[nodiscard]] common::Result<CompressionMeta> write_blob(const std::string& path, std::span<const std::uint8_t> data,
                                                           const CompressionChoice& choice) const;

  // Raw bytes of the file. io when missing or unreadable.
  [[nodiscard]] common::Result<Bytes> read_blob(const std::string& path) const;
  // Reads, decodes per meta.kind and verifies length (and CRC-32C when recorded).
  [[nodiscard]] common::Result<Bytes> read_blob_with_meta(const std::string& path, const CompressionMeta& meta) const;
  // Missing file is success.
  [[nodiscard]] common::Status delete_blob(const std::string& path) const;

  [[nodiscard]] common::FileSystem& file_system() const { return *fs_; }

 private:
  std::string dir_;
  common::FileSystem* fs_;
};

}  // namespace hybrid
