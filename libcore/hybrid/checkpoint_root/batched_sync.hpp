#pragma once
// The writes of one checkpoint save before its commit point, made durable together. Each blob is
// still written to a temporary file and renamed into place (so a killed process never leaves a
// torn file), but its own fsync and its directory's fsync are skipped; flush() then makes every
// one of them durable with one syncfs(2), and only after it the manifest -- the commit point -- is
// written through the base file system, with its own fsyncs. A save of nltrain's ~130 tensors
// was ~470 fsyncs (each blob's payload, .meta and directory), about a second on a shared disk;
// the order that matters (every blob durable before the manifest names it) is kept.
#include <memory>
#include <string>

#include "common/file_system.hpp"

namespace hybrid {

class BatchedSyncFileSystem final : public common::FileSystem {
 public:
  explicit BatchedSyncFileSystem(common::FileSystem& base) : base_(base) {}

  // Every write so far reaches the disk (syncfs on the file system holding `dir`).
  [[nodiscard]] common::Status flush(const std::string& dir) { return base_.sync_file_system(dir); }

  common::Result<std::unique_ptr<common::WritableFile>> create(const std::string& path) override;
  common::Result<common::TempFile> create_temp_beside(const std::string& target) override;
  common::Status sync_dir(const std::string&) override { return {}; }  // deferred to flush()

  common::Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override {
    return base_.read(path, max_bytes);
  }
  common::Expected<std::string, common::ReadError> read_file(const std::string& path, std::size_t max_bytes) override {
    return base_.read_file(path, max_bytes);
  }
  common::Status rename(const std::string& from, const std::string& to) override { return base_.rename(from, to); }
  common::Status sync_file_system(const std::string& dir) override { return base_.sync_file_system(dir); }
  common::Status remove(const std::string& path) override { return base_.remove(path); }
  common::Status create_dirs(const std::string& dir) override { return base_.create_dirs(dir); }
  bool exists(const std::string& path) override { return base_.exists(path); }
  bool is_dir(const std::string& path) override { return base_.is_dir(path); }
  common::Result<std::vector<std::string>> list_dir(const std::string& dir) override { return base_.list_dir(dir); }
  common::Result<std::uint64_t> file_size(const std::string& path) override { return base_.file_size(path); }
  common::NodeKind node_kind(const std::string& path) override { return base_.node_kind(path); }
  common::Result<std::string> resolve_symlinks(const std::string& path) override { return base_.resolve_symlinks(path); }
  common::Status read_exact(const std::string& path, std::span<std::byte> out) override {
    return base_.read_exact(path, out);
  }

 private:
  common::FileSystem& base_;
};

}  // namespace hybrid
