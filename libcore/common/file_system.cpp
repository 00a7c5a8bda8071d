#include "common/file_system.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

namespace common {
namespace {

Error errno_error(const std::string& what, const std::string& path, int err) {
  return Error::io(what + ": " + std::strerror(err), Location{path, 0, {}});
}

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~PosixWritableFile() override { (void)close(); }

  Status append(std::span<const std::byte> data) override {
    const std::byte* p = data.data();
    std::size_t left = data.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno_error("write failed", path_, errno);
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return {};
  }
  Status sync() override {
    if (::fsync(fd_) != 0) return errno_error("fsync failed", path_, errno);
    return {};
  }
  Status close() override {
    if (fd_ < 0) return {};
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return errno_error("close failed", path_, errno);
    return {};
  }

 private:
  int fd_;
  std::string path_;
};

ReadError read_error(ReadFailure reason, Error error) { return ReadError{reason, std::move(error)}; }

struct OpenedFile {
  int fd = -1;
  struct stat st {};
};

// The one open (and fstat) behind every read: the failure's reason comes from these calls,
// not from separate exists / is_dir / size checks made before (a check-then-use race).
Expected<OpenedFile, ReadError> open_for_read(const std::string& path) {
  OpenedFile f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) {
    const int e = errno;
    ReadFailure reason = ReadFailure::unreadable;
    if (e == ENOENT || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG) {
      reason = ReadFailure::not_found;
    } else if (e == EACCES) {
      // Only now, on the failure path: was it there at all, and what was it?
      struct stat st {};
      reason = ::stat(path.c_str(), &st) != 0 ? ReadFailure::not_found
               : S_ISDIR(st.st_mode)          ? ReadFailure::is_directory
                                              : ReadFailure::permission_denied;
    }
    return read_error(reason, errno_error("cannot open file", path, e));
  }
  if (::fstat(f.fd, &f.st) != 0) {
    const int e = errno;
    ::close(f.fd);
    return read_error(ReadFailure::unreadable, errno_error("cannot stat file", path, e));
  }
  if (S_ISDIR(f.st.st_mode)) {
    ::close(f.fd);
    return read_error(ReadFailure::is_directory, Error::io("is a directory", Location{path, 0, {}}));
  }
  return f;
}

// Reads all of `path` (a regular file, a pipe, a device) into a Buffer (std::string or
// std::vector<std::byte>), straight into its storage, refusing more than max_bytes.
template <typename Buffer>
Expected<Buffer, ReadError> read_whole(const std::string& path, std::size_t max_bytes) {
  auto opened = open_for_read(path);
  if (!opened) return opened.error();
  const int fd = opened->fd;
  const std::size_t limit = max_bytes == SIZE_MAX ? max_bytes : max_bytes + 1;  // one more byte shows "too large"
  std::size_t want = 65536;
  if (S_ISREG(opened->st.st_mode)) {
    if (static_cast<std::uint64_t>(opened->st.st_size) > max_bytes) {
      ::close(fd);
      return read_error(ReadFailure::too_large, Error::io("file is " + std::to_string(opened->st.st_size) +
                                                              " bytes; the limit is " + std::to_string(max_bytes),
                                                          Location{path, 0, {}}));
    }
    want = static_cast<std::size_t>(opened->st.st_size) + 1;  // + 1: the read that sees the end
  }
  Buffer out;
  out.resize(std::min(want, limit));
  std::size_t used = 0;
  for (;;) {
    if (used == out.size()) out.resize(std::min(out.size() * 2, limit));
    const ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      return read_error(ReadFailure::unreadable, errno_error("read failed", path, e));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
    if (used > max_bytes) {
      ::close(fd);
      return read_error(ReadFailure::too_large, Error::io("input exceeds the limit of " + std::to_string(max_bytes) +
                                                              " bytes",
                                                          Location{path, 0, {}}));
    }
  }
  ::close(fd);
  out.resize(used);
  return out;
}

// Opens `dir` and calls `call` (fsync, syncfs) on it.
Status on_dir(const std::string& dir, int (*call)(int), const char* failed) {
  int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_error("cannot open directory", dir, errno);
  int rc = call(fd);
  int e = errno;
  ::close(fd);
  if (rc != 0) return errno_error(failed, dir, e);
  return {};
}

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno_error("cannot create file", path, errno);
    return std::unique_ptr<WritableFile>(new PosixWritableFile(fd, path));
  }

  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override {
    auto bytes = read_whole<std::vector<std::byte>>(path, max_bytes);
    if (!bytes) return bytes.error().error;
    return std::move(bytes.value());
  }

  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override {
    return read_whole<std::string>(path, max_bytes);
  }

  Status rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return errno_error("rename to " + to + " failed", from, errno);
    return {};
  }

  Status sync_dir(const std::string& dir) override { return on_dir(dir, ::fsync, "fsync of directory failed"); }
  Status sync_file_system(const std::string& dir) override { return on_dir(dir, ::syncfs, "syncfs failed"); }

  Status remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return errno_error("cannot remove", path, errno);
    return {};
  }

  Status create_dirs(const std::string& dir) override {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error::io("cannot create directory: " + ec.message(), Location{dir, 0, {}});
    if (!is_dir(dir)) return Error::io("exists and is not a directory", Location{dir, 0, {}});
    return {};
  }

  bool exists(const std::string& path) override {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
  }
  bool is_dir(const std::string& path) override {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  }

  Result<std::vector<std::string>> list_dir(const std::string& dir) override {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return errno_error("cannot list directory", dir, errno);
    std::vector<std::string> names;
    while (dirent* ent = ::readdir(d)) {
      std::string name = ent->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
  }

  Status read_exact(const std::string& path, std::span<std::byte> out) override {
    auto opened = open_for_read(path);
    if (!opened) return opened.error().error;
    const int fd = opened->fd;
    const struct stat& st = opened->st;
    if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) != out.size()) {
      ::close(fd);
      return Error::io("file is " + std::to_string(st.st_size) + " bytes; expected " + std::to_string(out.size()),
                       Location{path, 0, {}});
    }
    std::size_t got = 0;
    while (got < out.size()) {
      ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        int e = errno;
        ::close(fd);
        return errno_error("read failed", path, e);
      }
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (got != out.size()) return Error::io("file shrank while being read", Location{path, 0, {}});
    return {};
  }

  Result<std::uint64_t> file_size(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return errno_error("cannot stat", path, errno);
    return static_cast<std::uint64_t>(st.st_size);
  }

  NodeKind node_kind(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return NodeKind::missing;
    if (S_ISREG(st.st_mode)) return NodeKind::regular;
    if (S_ISDIR(st.st_mode)) return NodeKind::directory;
    return NodeKind::other;
  }

  Result<std::string> resolve_symlinks(const std::string& path) override {
    std::string p = path;
    for (int hops = 0; hops < 40; ++hops) {
      struct stat st {};
      if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
      std::string target(PATH_MAX, '\0');
      const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
      if (n < 0) return errno_error("cannot read symbolic link", p, errno);
      target.resize(static_cast<std::size_t>(n));
      if (target.starts_with('/')) {
        p = std::move(target);
      } else {
        const auto slash = p.find_last_of('/');
        p = slash == std::string::npos ? target : p.substr(0, slash + 1) + target;
      }
    }
    return errno_error("cannot follow symbolic link", path, ELOOP);
  }

  Result<TempFile> create_temp_beside(const std::string& target) override {
    // Name k is tried until one is created (O_EXCL). A name that exists is either a live
    // writer's (its lock is held) or a dead one's (unlocked: removed, and the name retried).
    // The creator locks right after creating; a checker that removed the file in between
    // is seen as st_nlink == 0 and the creator starts over.
    std::size_t k = 0;
    for (int attempts = 0; attempts < 10000; ++attempts) {
      std::string name = target + ".atomic-tmp." + std::to_string(k);
      int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0) {
        struct stat st {};
        int rc = 0;
        while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
        }
        if (rc != 0 || ::fstat(fd, &st) != 0) {
          const int e = errno;
          ::close(fd);
          ::unlink(name.c_str());
          return errno_error("cannot lock temporary file", name, e);
        }
        if (st.st_nlink == 0) {  // removed by a checker before we locked it: retry the name
          ::close(fd);
          continue;
        }
        return TempFile{std::unique_ptr<WritableFile>(new PosixWritableFile(fd, name)), std::move(name)};
      }
      if (errno != EEXIST) return errno_error("cannot create file", name, errno);
      int old = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
      if (old < 0) {
        if (errno != ENOENT) ++k;  // not ours to judge (a link, no permission): next name
        continue;
      }
      if (::flock(old, LOCK_EX | LOCK_NB) == 0) {
        struct stat a {}, b {};
        // Remove it only when the name still refers to the file we locked.
        if (::fstat(old, &a) == 0 && ::lstat(name.c_str(), &b) == 0 && S_ISREG(a.st_mode) && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
          ::unlink(name.c_str());
        } else {
          ++k;
        }
      } else {
        ++k;  // a live writer holds it
      }
      ::close(old);
    }
    return Error::io("cannot create a temporary file beside it", Location{target, 0, {}});
  }
};

class FaultyWritableFile final : public WritableFile {
 public:
  FaultyWritableFile(FaultInjectingFileSystem& fs, std::unique_ptr<WritableFile> base)
      : fs_(fs), base_(std::move(base)) {}
  Status append(std::span<const std::byte> data) override {
    if (fs_.should_fail()) {
      (void)base_->append(data.first(data.size() / 2));
      return Error::io("injected write failure");
    }
    return base_->append(data);
  }
  Status sync() override {
    if (fs_.should_fail()) return Error::io("injected fsync failure");
    return base_->sync();
  }
  Status close() override { return base_->close(); }

 private:
  FaultInjectingFileSystem& fs_;
  std::unique_ptr<WritableFile> base_;
};

}  // namespace

FileSystem& real_file_system() {
  static PosixFileSystem fs;
  return fs;
}

bool FaultInjectingFileSystem::should_fail() {
  ++count_;
  if (fail_at_ != 0 && count_ == fail_at_) {
    fired_ = true;
    return true;
  }
  return false;
}

Result<std::unique_ptr<WritableFile>> FaultInjectingFileSystem::create(const std::string& path) {
  if (should_fail()) return Error::io("injected create failure", Location{path, 0, {}});
  auto f = base_.create(path);
  if (!f) return f.error();
  return std::unique_ptr<WritableFile>(new FaultyWritableFile(*this, std::move(f.value())));
}

Result<TempFile> FaultInjectingFileSystem::create_temp_beside(const std::string& target) {
  if (should_fail()) return Error::io("injected create failure", Location{target, 0, {}});
  auto t = base_.create_temp_beside(target);
  if (!t) return t.error();
  t->file = std::unique_ptr<WritableFile>(new FaultyWritableFile(*this, std::move(t->file)));
  return t;
}

Result<std::vector<std::byte>> FaultInjectingFileSystem::read(const std::string& path, std::size_t max_bytes) {
  return base_.read(path, max_bytes);
}

Status FaultInjectingFileSystem::rename(const std::string& from, const std::string& to) {
  if (should_fail()) return Error::io("injected rename failure", Location{from, 0, {}});
  return base_.rename(from, to);
}

Status FaultInjectingFileSystem::sync_dir(const std::string& dir) {
  if (should_fail()) return Error::io("injected directory fsync failure", Location{dir, 0, {}});
  return base_.sync_dir(dir);
}

Status FaultInjectingFileSystem::sync_file_system(const std::string& dir) {
  if (should_fail()) return Error::io("injected syncfs failure", Location{dir, 0, {}});
  return base_.sync_file_system(dir);
}

Status FaultInjectingFileSystem::remove(const std::string& path) {
  if (should_fail()) return Error::io("injected remove failure", Location{path, 0, {}});
  return base_.remove(path);
}

Status FaultInjectingFileSystem::create_dirs(const std::string& dir) {
  if (should_fail()) return Error::io("injected mkdir failure", Location{dir, 0, {}});
  return base_.create_dirs(dir);
}

Status FileSystem::read_exact(const std::string& path, std::span<std::byte> out) {
  auto bytes = read(path, out.size());
  if (!bytes) return bytes.error();
  if (bytes->size() != out.size()) {
    return Error::io("file is " + std::to_string(bytes->size()) + " bytes; expected " + std::to_string(out.size()),
                     Location{path, 0, {}});
  }
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return {};
}

Expected<std::string, ReadError> FileSystem::read_file(const std::string& path, std::size_t max_bytes) {
  auto bytes = read(path, max_bytes);
  if (!bytes) return ReadError{ReadFailure::unreadable, bytes.error()};
  const auto& b = bytes.value();
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

Result<std::string> read_text(FileSystem& fs, const std::string& path, std::size_t max_bytes) {
  auto text = fs.read_file(path, max_bytes);
  if (!text) return text.error().error;
  return std::move(text.value());
}

}  // namespace common
