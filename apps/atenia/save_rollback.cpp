#include "save_rollback.hpp"

#include <filesystem>
#include <vector>

#include "common/dir_lock.hpp"

namespace atenia::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kBackupDir = ".save-backup";
// The backup is renamed to this before it is deleted, so a kill during the deletion is not
// taken for an interrupted save (whose files would then be rolled back after all).
constexpr const char* kDoneDir = ".save-backup.done";

std::set<std::string> paths_under(const std::string& root) {
  std::set<std::string> out;
  std::error_code ec;
  const fs::path backup = fs::path(root) / kBackupDir;
  const fs::path done = fs::path(root) / kDoneDir;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path() == backup || it->path() == done) {
      it.disable_recursion_pending();
      continue;
    }
    out.insert(it->path().string());
  }
  return out;
}

// Creates the directories from `root` down to `dir` (a path under it) one at a time. A component
// that exists as anything but a real directory is refused: a symbolic link planted in the root
// would otherwise carry the files put back to wherever it points, outside the root.
common::Status real_dirs_under(const fs::path& root, const fs::path& dir) {
  std::error_code ec;
  fs::path at = root;
  for (const fs::path& part : dir.lexically_relative(root)) {
    if (part == ".") continue;
    at /= part;
    const fs::file_status st = fs::symlink_status(at, ec);
    if (st.type() == fs::file_type::not_found) {
      if (!fs::create_directory(at, ec) && ec) return common::Error::io("cannot create " + at.string() + ": " + ec.message());
      continue;
    }
    if (st.type() != fs::file_type::directory) {
      return common::Error::io(at.string() + " is not a directory (a symbolic link or another file); nothing is put back "
                               "through it");
    }
  }
  return {};
}

// Renames every file of the backup back to its place under root, never through a link: the
// backup's own entries count only as real files (a link in it is not followed or moved), and
// every directory on the way to the original place is a real one inside the root.
common::Status restore_links(const fs::path& root, const fs::path& backup) {
  std::error_code ec;
  const fs::file_status backup_status = fs::symlink_status(backup, ec);
  if (backup_status.type() == fs::file_type::not_found) return {};  // the root held no file to keep
  if (backup_status.type() != fs::file_type::directory) {
    return common::Error::io(backup.string() + " is not a directory (a symbolic link or another file); refusing to "
                             "put anything back from it");
  }
  std::vector<fs::path> links;
  for (auto it = fs::recursive_directory_iterator(backup, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->symlink_status().type() == fs::file_type::regular) links.push_back(it->path());
  }
  if (ec) return common::Error::io("cannot read " + backup.string() + ": " + ec.message());
  for (const fs::path& link : links) {
    const fs::path original = root / link.lexically_relative(backup);
    if (auto s = real_dirs_under(root, original.parent_path()); !s) return s;
    fs::rename(link, original, ec);
    if (ec) return common::Error::io("cannot put back " + original.string() + ": " + ec.message());
  }
  return {};
}

// With the root locked: an earlier save that died between begin() and commit() is rolled back.
common::Status roll_back_leftover(const fs::path& r) {
  std::error_code ec;
  fs::remove_all(r / kDoneDir, ec);
  if (!fs::exists(r / kBackupDir, ec)) return {};
  if (auto s = restore_links(r, r / kBackupDir); !s) return s;
  fs::remove_all(r / kBackupDir, ec);
  if (ec) return common::Error::io("cannot remove " + (r / kBackupDir).string() + ": " + ec.message());
  return {};
}

}  // namespace

common::Status SaveRollback::recover_interrupted(const std::string& root) {
  const fs::path r(root);
  std::error_code ec;
  if (!fs::exists(r / kBackupDir, ec)) return {};  // the common case: no lock taken
  // A live save holds the lock and has a backup too: waiting for the lock tells the two apart.
  auto lock = common::DirLock::acquire(root);
  if (!lock) return lock.error();
  return roll_back_leftover(r);
}

common::Result<SaveRollback> SaveRollback::begin(const std::string& root) {
  const fs::path r(root);
  std::error_code ec;
  if (auto s = roll_back_leftover(r); !s) return s.error();
  SaveRollback out(root);
  out.before_ = paths_under(root);
  for (const std::string& p : out.before_) {
    if (!fs::is_regular_file(fs::symlink_status(p, ec))) continue;
    const fs::path link = r / kBackupDir / fs::path(p).lexically_relative(r);
    fs::create_directories(link.parent_path(), ec);
    if (!ec) fs::create_hard_link(p, link, ec);
    if (ec) {
      fs::remove_all(r / kBackupDir, ec);
      return common::Error::io("cannot keep a copy of " + p + " while saving: " + ec.message());
    }
  }
  return out;
}

void SaveRollback::rollback() {
  const fs::path r(root_);
  std::error_code ec;
  if (!restore_links(r, r / kBackupDir)) return;  // the backup stays; the next save retries
  const auto now = paths_under(root_);
  for (auto it = now.rbegin(); it != now.rend(); ++it) {  // children before their directories
    if (!before_.contains(*it)) fs::remove(*it, ec);
  }
  fs::remove_all(r / kBackupDir, ec);
}

void SaveRollback::commit() {
  const fs::path r(root_);
  std::error_code ec;
  fs::rename(r / kBackupDir, r / kDoneDir, ec);
  fs::remove_all(ec ? r / kBackupDir : r / kDoneDir, ec);
}

}  // namespace atenia::cli
