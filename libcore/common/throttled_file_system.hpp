#pragma once
// A FileSystem that is slower than the one it wraps by a fixed time per byte written and read:
// a second storage tier of known speed on a machine with one disk. The bytes are the base's;
// only the wall clock changes (it sleeps). Used by tests and by nltrain's test hook
// NLTRAIN_TEST_SLOW_TIER (apps/nltrain/spill_tiers.hpp), never by default.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "common/forwarding_file_system.hpp"

namespace common {

class ThrottledFileSystem final : public ForwardingFileSystem {
 public:
  // Sleeps `per_mib` for each MiB (pro rata) appended to a file or read from one.
  ThrottledFileSystem(FileSystem& base, std::chrono::microseconds per_mib) : ForwardingFileSystem(base), per_mib_(per_mib) {}

  void pause_for(std::size_t bytes) const;

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override;
  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override;
  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override;
  Result<TempFile> create_temp_beside(const std::string& target) override;
  Status read_exact(const std::string& path, std::span<std::byte> out) override;

 private:
  std::chrono::microseconds per_mib_;
};

}  // namespace common
