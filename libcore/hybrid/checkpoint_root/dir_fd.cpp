#include "hybrid/checkpoint_root/dir_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace hybrid {

namespace {

common::Error io_errno(const std::string& what, const std::string& shown) {
  return common::Error::io(what + " " + shown + ": " + std::strerror(errno));
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::string not_a_dir(const std::string& shown) {
  return shown + " is not a directory (a symbolic link or another file); nothing is put back through it";
}

}  // namespace

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

common::Result<Fd> open_dir_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) return Fd(fd);
  if (errno == ENOENT) return Fd();
  return io_errno("cannot open directory", path);
}

common::Result<Fd> open_subdir(int parent, const std::string& name, const std::string& shown) {
  const int fd = ::openat(parent, name.c_str(), kDirFlags);
  if (fd >= 0) return Fd(fd);
  if (errno == ENOENT) return Fd();
  if (errno == ELOOP || errno == ENOTDIR) return common::Error::io(not_a_dir(shown));
  return io_errno("cannot open directory", shown);
}

common::Result<Fd> open_or_make_subdir(int parent, const std::string& name, const std::string& shown) {
  auto fd = open_subdir(parent, name, shown);
  if (!fd || fd->valid()) return fd;
  if (::mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST) return io_errno("cannot create", shown);
  fd = open_subdir(parent, name, shown);
  if (fd && !fd->valid()) return common::Error::io(shown + " vanished while it was being created");
  return fd;
}

common::Result<std::vector<DirEntry>> list_dir(int dir, const std::string& shown) {
  const int copy = ::dup(dir);
  if (copy < 0) return io_errno("cannot read", shown);
  DIR* d = ::fdopendir(copy);
  if (d == nullptr) {
    ::close(copy);
    return io_errno("cannot read", shown);
  }
  ::rewinddir(d);
  std::vector<DirEntry> out;
  errno = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    const EntryType type = S_ISREG(st.st_mode) ? EntryType::file : S_ISDIR(st.st_mode) ? EntryType::dir : EntryType::other;
    out.push_back({name, type});
    errno = 0;
  }
  const int err = errno;
  ::closedir(d);
  if (err != 0) {
    errno = err;
    return io_errno("cannot read", shown);
  }
  std::sort(out.begin(), out.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return out;
}

common::Status remove_tree_at(int parent, const std::string& name, const std::string& shown) {
  struct stat st {};
  if (::fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return errno == ENOENT ? common::Status{} : common::Status{io_errno("cannot stat", shown)};
  }
  if (S_ISDIR(st.st_mode)) {
    auto fd = open_subdir(parent, name, shown);
    if (!fd) return fd.error();
    if (fd->valid()) {
      auto entries = list_dir(fd->get(), shown);
      if (!entries) return entries.error();
      for (const DirEntry& e : *entries) {
        if (auto s = remove_tree_at(fd->get(), e.name, shown + "/" + e.name); !s) return s;
      }
    }
    if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) return io_errno("cannot remove", shown);
    return {};
  }
  if (::unlinkat(parent, name.c_str(), 0) != 0 && errno != ENOENT) return io_errno("cannot remove", shown);
  return {};
}

namespace {

common::Status collect_files(int dir, const std::string& rel, const std::string& shown, std::vector<std::string>& out) {
  auto entries = list_dir(dir, shown);
  if (!entries) return entries.error();
  for (const DirEntry& e : *entries) {
    const std::string child = rel.empty() ? e.name : rel + "/" + e.name;
    if (e.type == EntryType::file) out.push_back(child);
    if (e.type != EntryType::dir) continue;
    auto fd = open_subdir(dir, e.name, shown + "/" + e.name);
    if (!fd) return fd.error();
    if (!fd->valid()) continue;
    if (auto s = collect_files(fd->get(), child, shown + "/" + e.name, out); !s) return s;
  }
  return {};
}

common::Status only_files_and_dirs(int dir, const std::string& shown) {
  auto entries = list_dir(dir, shown);
  if (!entries) return entries.error();
  for (const DirEntry& e : *entries) {
    const std::string child = shown + "/" + e.name;
    if (e.type == EntryType::other) {
      return common::Error::io(child + " is a symbolic link or a special file: a checkpoint root holds only files and "
                               "directories, and nothing is written through anything else");
    }
    if (e.type != EntryType::dir) continue;
    auto fd = open_subdir(dir, e.name, child);
    if (!fd) return fd.error();
    if (fd->valid()) {
      if (auto s = only_files_and_dirs(fd->get(), child); !s) return s;
    }
  }
  return {};
}

}  // namespace

common::Status refuse_links_below(const std::string& root) {
  auto fd = open_dir_path(root);
  if (!fd) return fd.error();
  if (!fd->valid()) return {};
  return only_files_and_dirs(fd->get(), root);
}

common::Result<std::vector<std::string>> files_below(int dir, const std::string& shown) {
  std::vector<std::string> out;
  if (auto s = collect_files(dir, "", shown, out); !s) return s.error();
  return out;
}

}  // namespace hybrid
