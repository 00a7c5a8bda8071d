#pragma once
// Directory walks under a checkpoint root through file descriptors, never through path strings
// checked and then used: every component is opened with openat(O_NOFOLLOW | O_DIRECTORY) from
// its parent's descriptor, so a symbolic link planted anywhere in the root (or swapped in while
// we walk) is refused instead of followed out of the root.
#include <string>
#include <vector>

#include "common/result.hpp"

namespace hybrid {

// An owned descriptor, closed on scope exit.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

enum class EntryType { file, dir, other };  // Other: a symbolic link, FIFO, device...
struct DirEntry {
  std::string name;
  EntryType type = EntryType::other;
};

// `path` itself (the root the user named) may be reached through links; invalid Fd when missing.
[[nodiscard]] common::Result<Fd> open_dir_path(const std::string& path);
// The directory `name` inside `parent`, never through a link. Missing -> invalid Fd (not an
// error); a link or a non-directory -> io error naming `shown` ("<shown> is not a directory ...").
[[nodiscard]] common::Result<Fd> open_subdir(int parent, const std::string& name, const std::string& shown);
// As open_subdir, creating the directory when it is missing.
[[nodiscard]] common::Result<Fd> open_or_make_subdir(int parent, const std::string& name, const std::string& shown);
// The entries of `dir` (not . and ..), sorted by name, typed without following links.
[[nodiscard]] common::Result<std::vector<DirEntry>> list_dir(int dir, const std::string& shown);
// Removes `name` inside `parent` and, for a real directory, everything in it; links are removed,
// never followed. A missing entry is success.
[[nodiscard]] common::Status remove_tree_at(int parent, const std::string& name, const std::string& shown);
// Refuses a root (the directory the user named) holding anything below it but regular files and
// real directories: a save writes blobs through paths under it, and a link planted there would
// carry them out of the root. A missing root is success.
[[nodiscard]] common::Status refuse_links_below(const std::string& root);
// The regular files under `dir`, as paths relative to it ("a/b"), links not followed.
[[nodiscard]] common::Result<std::vector<std::string>> files_below(int dir, const std::string& shown);

}  // namespace hybrid
