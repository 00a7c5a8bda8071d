#pragma once
// An exclusive advisory lock (flock) on a directory, held for the object's lifetime: two
// processes updating files in one directory (a learning table, a checkpoint root, a training
// run) take it so that neither read-modify-write loses the other's. The second waits for the
// first (LockWait::wait), or is refused at once (LockWait::fail_at_once: nltrain's trainer,
// where a second writer is a mistake to report, not a turn to wait for).
// Locking the directory itself leaves no lock file behind; atomic renames inside it do not
// break the lock (they would, had the lock been on the file being replaced).
#include <string>

#include "common/error.hpp"
#include "common/expected.hpp"
#include "common/result.hpp"

namespace common {

enum class LockWait : unsigned char { wait, fail_at_once };
// exclusive: one holder; shared: any number of holders, none while an exclusive one holds it.
enum class LockShare : unsigned char { exclusive, shared };
// follow: a symbolic link naming the directory is followed; refuse: it is not (a directory that
// must be a root's own, never one a link points elsewhere).
enum class LockLinks : unsigned char { follow, refuse };

// The io Error of a lock not taken; held_elsewhere() says another process holds it (only with
// LockWait::fail_at_once), so a caller words that case itself without reading the message.
class LockError : public Error {
 public:
  LockError(Error e, bool held_elsewhere) : Error(std::move(e)), held_elsewhere_(held_elsewhere) {}
  [[nodiscard]] bool held_elsewhere() const { return held_elsewhere_; }

 private:
  bool held_elsewhere_;
};

class DirLock {
 public:
  // io error when `dir` cannot be opened (missing, not a directory, no permission), or when
  // another process holds the lock and `wait` is fail_at_once.
  [[nodiscard]] static Expected<DirLock, LockError> acquire(const std::string& dir, LockWait wait = LockWait::wait,
                                                            LockShare share = LockShare::exclusive,
                                                            LockLinks links = LockLinks::follow);
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
