#include "common/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace common {

Expected<DirLock, LockError> DirLock::acquire(const std::string& dir, LockWait wait, LockShare share,
                                              LockLinks links) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (links == LockLinks::refuse ? O_NOFOLLOW : 0));
  if (fd < 0) {
    return LockError(Error::io(std::string("cannot open directory to lock it: ") + std::strerror(errno), Location{dir, 0, {}}),
                     false);
  }
  const int op = (share == LockShare::exclusive ? LOCK_EX : LOCK_SH) | (wait == LockWait::wait ? 0 : LOCK_NB);
  int rc = 0;
  while ((rc = ::flock(fd, op)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int e = errno;
    ::close(fd);
    return LockError(Error::io(std::string("cannot lock directory: ") + std::strerror(e), Location{dir, 0, {}}),
                     e == EWOULDBLOCK);
  }
  return DirLock(fd);
}

DirLock::DirLock(DirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace common
