#pragma once
// ScratchFileSystem: another FileSystem with its flushes taken out. Every write, rename and
// removal goes through as it is (a rename still replaces a file atomically for readers), but
// fsync of files and directories and syncfs do nothing and succeed. For data whose loss in a
// crash costs nothing: what a training run spills to disk to stay inside a memory budget is
// read back within the same step, every blob is verified by its CRC on the way back (a torn
// file is refused, not used), and a killed run's spill directory is wiped at the next start.
// Durability there would only wait on the disk: two fsyncs of a file and three of its directory
// per blob.
#include "common/file_system.hpp"

namespace common {

class ScratchFileSystem final : public FileSystem {
 public:
  explicit ScratchFileSystem(FileSystem& base) : base_(base) {}

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override;
  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override { return base_.read(path, max_bytes); }
  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override {
    return base_.read_file(path, max_bytes);
  }
  Status rename(const std::string& from, const std::string& to) override { return base_.rename(from, to); }
  Status sync_dir(const std::string&) override { return {}; }
  Status sync_file_system(const std::string&) override { return {}; }
  Status remove(const std::string& path) override { return base_.remove(path); }
  Status create_dirs(const std::string& dir) override { return base_.create_dirs(dir); }
  bool exists(const std::string& path) override { return base_.exists(path); }
  bool is_dir(const std::string& path) override { return base_.is_dir(path); }
  Result<std::vector<std::string>> list_dir(const std::string& dir) override { return base_.list_dir(dir); }
  Result<std::uint64_t> file_size(const std::string& path) override { return base_.file_size(path); }
  NodeKind node_kind(const std::string& path) override { return base_.node_kind(path); }
  Result<std::string> resolve_symlinks(const std::string& path) override { return base_.resolve_symlinks(path); }
  Result<TempFile> create_temp_beside(const std::string& target) override;
  Status read_exact(const std::string& path, std::span<std::byte> out) override { return base_.read_exact(path, out); }

 private:
  FileSystem& base_;
};

}  // namespace common
