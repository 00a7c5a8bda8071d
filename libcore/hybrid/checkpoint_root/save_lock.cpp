#include "hybrid/checkpoint_root/save_lock.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "hybrid/checkpoint_root/root_layout.hpp"

namespace hybrid {
namespace {

// ROOT/checkpoint itself, never a link in its place: the lock must be the root's own.
common::Result<common::DirLock> lock_dir(const std::string& dir, common::LockShare share) {
  auto lock = common::DirLock::acquire(dir, common::LockWait::wait, share, common::LockLinks::refuse);
  if (!lock) return common::Error(lock.error());
  return std::move(*lock);
}

// The lock on ROOT/checkpoint if it exists, else none.
common::Result<std::optional<common::DirLock>> lock_if_present(const std::string& root, common::LockShare share) {
  const std::string dir = CacheRoot{root}.checkpoint();
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 && errno == ENOENT) return std::optional<common::DirLock>();
  auto lock = lock_dir(dir, share);
  if (!lock) return lock.error();
  return std::optional<common::DirLock>(std::move(*lock));
}

}  // namespace

common::Result<SaveLock> SaveLock::for_save(const std::string& root) {
  const std::string dir = CacheRoot{root}.checkpoint();
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return common::Error::io(dir + ": cannot create: " + std::strerror(errno));
  }
  auto lock = lock_dir(dir, common::LockShare::exclusive);
  if (!lock) return lock.error();
  return SaveLock(std::move(*lock));
}

common::Result<SaveLock> SaveLock::for_recovery(const std::string& root) {
  auto lock = lock_if_present(root, common::LockShare::exclusive);
  if (!lock) return lock.error();
  return SaveLock(std::move(*lock));
}

common::Result<SaveLock> SaveLock::for_read(const std::string& root) {
  auto lock = lock_if_present(root, common::LockShare::shared);
  if (!lock) return lock.error();
  return SaveLock(std::move(*lock));
}

}  // namespace hybrid
