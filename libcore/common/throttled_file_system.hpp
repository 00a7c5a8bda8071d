#pragma once
// A FileSystem that is slower than the one it wraps by a fixed time per byte written and read:
// a second storage tier of known speed on a machine with one disk. The bytes are the base's;
// only the wall clock changes (it sleeps). Used by tests and by nltrain's test hook
// NLTRAIN_TEST_SLOW_TIER (apps/nltrain/spill_tiers.hpp), never by default.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "common/file_system.hpp"

namespace common {

class ThrottledFileSystem final : public FileSystem {
 public:
  // Sleeps `per_mib` for each MiB (pro rata) appended to a file or read from one.
  ThrottledFileSystem(FileSystem& base, std::chrono::microseconds per_mib) : base_(base), per_mib_(per_mib) {}

  void pause_for(std::size_t bytes) const;

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override;
  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override;
  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override;
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
  Result<TempFile> create_temp_beside(const std::string& target) override;
  Status read_exact(const std::string& path, std::span<std::byte> out) override;

 private:
  FileSystem& base_;
  std::chrono::microseconds per_mib_;
};

}  // namespace common
