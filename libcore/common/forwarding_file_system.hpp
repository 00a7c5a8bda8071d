#pragma once
// ForwardingFileSystem: a FileSystem that hands every call to another one. The wrappers that
// change one aspect of a file system (ScratchFileSystem: no flushes; ThrottledFileSystem: a
// slower tier) derive from it and override only what they change, so a method added to
// FileSystem is forwarded in one place.
#include "common/file_system.hpp"

namespace common {

class ForwardingFileSystem : public FileSystem {
 public:
  explicit ForwardingFileSystem(FileSystem& base) : base_(base) {}

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override { return base_.create(path); }
  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override { return base_.read(path, max_bytes); }
  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override {
    return base_.read_file(path, max_bytes);
  }
  Status rename(const std::string& from, const std::string& to) override { return base_.rename(from, to); }
  Status sync_dir(const std::string& dir) override { return base_.sync_dir(dir); }
  Status sync_file_system(const std::string& dir) override { return base_.sync_file_system(dir); }
  Status remove(const std::string& path) override { return base_.remove(path); }
  Status create_dirs(const std::string& dir) override { return base_.create_dirs(dir); }
  bool exists(const std::string& path) override { return base_.exists(path); }
  bool is_dir(const std::string& path) override { return base_.is_dir(path); }
  Result<std::vector<std::string>> list_dir(const std::string& dir) override { return base_.list_dir(dir); }
  Result<std::uint64_t> file_size(const std::string& path) override { return base_.file_size(path); }
  NodeKind node_kind(const std::string& path) override { return base_.node_kind(path); }
  Result<std::string> resolve_symlinks(const std::string& path) override { return base_.resolve_symlinks(path); }
  Result<TempFile> create_temp_beside(const std::string& target) override { return base_.create_temp_beside(target); }
  Status read_exact(const std::string& path, std::span<std::byte> out) override { return base_.read_exact(path, out); }

 protected:
  FileSystem& base_;
};

}  // namespace common
