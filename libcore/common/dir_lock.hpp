#pragma once
// An exclusive advisory lock (flock) on a directory, held for the object's lifetime: two
// processes updating files in one directory (a learning table, a checkpoint root) take it
// so that neither read-modify-write loses the other's. The second waits for the first.
// Locking the directory itself leaves no lock file behind; atomic renames inside it do not
// break the lock (they would, had the lock been on the file being replaced).
#include <string>

#include "common/result.hpp"

namespace common {

class DirLock {
 public:
  // io error when `dir` cannot be opened (missing, not a directory, no permission).
  [[nodiscard]] static Result<DirLock> acquire(const std::string& dir);
  DirLock(DirLock&& other) noexcept;
  DirLock& operator=(DirLock&&) = delete;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock();

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace common
