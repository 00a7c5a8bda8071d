#include "hybrid/checkpoint_root/save_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "hybrid/checkpoint_root/root_layout.hpp"

namespace hybrid {
namespace {

common::Result<int> lock_dir(const std::string& dir, int op) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return common::Error::io(dir + ": cannot open to lock it: " + std::strerror(errno));
  int rc = 0;
  while ((rc = ::flock(fd, op)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int e = errno;
    ::close(fd);
    return common::Error::io(dir + ": cannot lock: " + std::strerror(e));
  }
  return fd;
}

}  // namespace

common::Result<SaveLock> SaveLock::for_save(const std::string& root) {
  const std::string dir = CacheRoot{root}.checkpoint();
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return common::Error::io(dir + ": cannot create: " + std::strerror(errno));
  }
  auto fd = lock_dir(dir, LOCK_EX);
  if (!fd) return fd.error();
  return SaveLock(*fd);
}

// The lock on ROOT/checkpoint if it exists, else none.
static common::Result<int> lock_if_present(const std::string& root, int op) {
  const std::string dir = CacheRoot{root}.checkpoint();
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 && errno == ENOENT) return -1;
  return lock_dir(dir, op);
}

common::Result<SaveLock> SaveLock::for_recovery(const std::string& root) {
  auto fd = lock_if_present(root, LOCK_EX);
  if (!fd) return fd.error();
  return SaveLock(*fd);
}

common::Result<SaveLock> SaveLock::for_read(const std::string& root) {
  auto fd = lock_if_present(root, LOCK_SH);
  if (!fd) return fd.error();
  return SaveLock(*fd);
}

SaveLock::~SaveLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace hybrid
