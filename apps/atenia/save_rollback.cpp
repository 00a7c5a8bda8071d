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

// Renames every file of the backup back to its place under root.
common::Status restore_links(const fs::path& root, const fs::path& backup) {
  std::error_code ec;
  if (!fs::exists(backup, ec)) return {};  // the root held no file to keep
  std::vector<fs::path> links;
  for (auto it = fs::recursive_directory_iterator(backup, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file()) links.push_back(it->path());
  }
  if (ec) return common::Error::io("cannot read " + backup.string() + ": " + ec.message());
  for (const fs::path& link : links) {
    const fs::path original = root / fs::relative(link, backup);
    fs::create_directories(original.parent_path(), ec);
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
    const fs::path link = r / kBackupDir / fs::relative(p, r);
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
