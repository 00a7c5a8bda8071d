#pragma once
// ScratchFileSystem: another FileSystem with its flushes taken out. Every write, rename and
// removal goes through as it is (a rename still replaces a file atomically for readers), but
// fsync of files and directories and syncfs do nothing and succeed. For data whose loss in a
// crash costs nothing: what a training run spills to disk to stay inside a memory budget is
// read back within the same step, every blob is verified by its CRC on the way back (a torn
// file is refused, not used), and a killed run's spill directory is wiped at the next start.
// Durability there would only wait on the disk: two fsyncs of a file and three of its directory
// per blob.
#include "common/forwarding_file_system.hpp"

namespace common {

class ScratchFileSystem final : public ForwardingFileSystem {
 public:
  explicit ScratchFileSystem(FileSystem& base) : ForwardingFileSystem(base) {}

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override;
  Status sync_dir(const std::string&) override { return {}; }
  Status sync_file_system(const std::string&) override { return {}; }
  Result<TempFile> create_temp_beside(const std::string& target) override;
};

}  // namespace common
