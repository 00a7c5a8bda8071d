#include "hybrid/checkpoint_root/save_rollback.hpp"

#include "hybrid/checkpoint_root/save_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include "hybrid/checkpoint_root/dir_fd.hpp"

namespace hybrid {

namespace {

constexpr const char* kBackupDir = ".save-backup";
// The backup is built under this name and renamed to kBackupDir once it holds every file: a
// save killed while linking has changed nothing yet, and its partial backup must not be taken
// for the committed checkpoint.
constexpr const char* kPartialDir = ".save-backup.partial";
// The backup is renamed to this before it is deleted, so a kill during the deletion is not
// taken for an interrupted save (whose files would then be rolled back after all).
constexpr const char* kDoneDir = ".save-backup.done";

bool is_backup_name(const std::string& name) { return name == kBackupDir || name == kPartialDir || name == kDoneDir; }

// Hard-links every regular file below `src` into `dst` (same relative paths); links and other
// special files are not followed and not kept.
common::Status link_tree(int src, int dst, const std::string& shown, bool top) {
  auto entries = list_dir(src, shown);
  if (!entries) return entries.error();
  for (const DirEntry& e : *entries) {
    if (top && is_backup_name(e.name)) continue;
    const std::string at = shown + "/" + e.name;
    if (e.type == EntryType::file) {
      if (::linkat(src, e.name.c_str(), dst, e.name.c_str(), 0) != 0) {
        return common::Error::io("cannot keep a copy of " + at + " while saving: " + std::strerror(errno));
      }
    } else if (e.type == EntryType::dir) {
      auto from = open_subdir(src, e.name, at);
      if (!from) return from.error();
      if (!from->valid()) continue;
      auto to = open_or_make_subdir(dst, e.name, at);
      if (!to) return to.error();
      if (auto s = link_tree(from->get(), to->get(), at, false); !s) return s;
    }
  }
  return {};
}

// A file is put back by a new link under this suffix renamed over its place. A recovery killed
// between the two leaves the link; the next recovery removes it with the files the save added.
constexpr const char* kPutBackSuffix = ".put-back";

// Puts every regular file of the backup back to its place in the root, as a link: the backup
// stays whole until the rollback is complete, so a rollback killed part-way (kill -9 of the next
// writer while it recovers) is simply redone, and readers keep reading the whole committed
// checkpoint from the backup meanwhile (moving the files out of it lost them both ways). Each
// directory on the way is opened from its parent without following links, so a link planted in
// the root stops the recovery with an error naming it.
common::Status put_back(int backup, int root, const std::string& shown) {
  auto entries = list_dir(backup, shown);
  if (!entries) return entries.error();
  for (const DirEntry& e : *entries) {
    const std::string at = shown + "/" + e.name;
    if (e.type == EntryType::file) {
      const std::string tmp = e.name + kPutBackSuffix;
      (void)::unlinkat(root, tmp.c_str(), 0);  // left by a recovery killed here; missing is fine
      if (::linkat(backup, e.name.c_str(), root, tmp.c_str(), 0) != 0 ||
          ::renameat(root, tmp.c_str(), root, e.name.c_str()) != 0) {
        return common::Error::io("cannot put back " + at + ": " + std::strerror(errno));
      }
      // Renaming onto another link of the same file does nothing (POSIX) and leaves `tmp`.
      if (::unlinkat(root, tmp.c_str(), 0) != 0 && errno != ENOENT) {
        return common::Error::io("cannot put back " + at + ": " + std::strerror(errno));
      }
    } else if (e.type == EntryType::dir) {
      auto from = open_subdir(backup, e.name, at);
      if (!from) return from.error();
      if (!from->valid()) continue;
      auto to = open_or_make_subdir(root, e.name, at);
      if (!to) return to.error();
      if (auto s = put_back(from->get(), to->get(), at); !s) return s;
    }
  }
  return {};
}

// Removes every regular file below `dir` whose relative path is not in `keep`.
common::Status remove_added(int dir, const std::string& rel, const std::string& shown, const std::set<std::string>& keep) {
  auto entries = list_dir(dir, shown);
  if (!entries) return entries.error();
  for (const DirEntry& e : *entries) {
    if (rel.empty() && is_backup_name(e.name)) continue;
    const std::string child = rel.empty() ? e.name : rel + "/" + e.name;
    if (e.type == EntryType::file && !keep.contains(child)) {
      if (::unlinkat(dir, e.name.c_str(), 0) != 0 && errno != ENOENT) {
        return common::Error::io("cannot remove " + shown + "/" + e.name + ": " + std::strerror(errno));
      }
    } else if (e.type == EntryType::dir) {
      auto sub = open_subdir(dir, e.name, shown + "/" + e.name);
      if (!sub) return sub.error();
      if (sub->valid()) {
        if (auto s = remove_added(sub->get(), child, shown + "/" + e.name, keep); !s) return s;
      }
    }
  }
  return {};
}

// With the root locked: the root goes back to what the complete backup holds.
common::Result<bool> roll_back_leftover(const std::string& root) {
  auto r = open_dir_path(root);
  if (!r) return r.error();
  if (!r->valid()) return false;
  for (const char* leftover : {kPartialDir, kDoneDir}) {
    if (auto s = remove_tree_at(r->get(), leftover, root + "/" + leftover); !s) return s.error();
  }
  const std::string shown = root + "/" + kBackupDir;
  auto backup = open_subdir(r->get(), kBackupDir, shown);
  if (!backup) {
    return common::Error::io(shown + " is not a directory (a symbolic link or another file); refusing to put anything "
                             "back from it");
  }
  if (!backup->valid()) return false;
  auto kept = files_below(backup->get(), shown);
  if (!kept) return kept.error();
  if (auto s = put_back(backup->get(), r->get(), root); !s) return s.error();
  if (auto s = remove_added(r->get(), "", root, std::set<std::string>(kept->begin(), kept->end())); !s) return s.error();
  // Done: renamed first, so that a kill while it is deleted is not taken for a pending save
  // (a partly deleted backup read as the committed checkpoint).
  if (::renameat(r->get(), kBackupDir, r->get(), kDoneDir) != 0) {
    return common::Error::io("cannot rename " + shown + ": " + std::strerror(errno));
  }
  if (auto s = remove_tree_at(r->get(), kDoneDir, root + "/" + kDoneDir); !s) return s.error();
  return true;
}

}  // namespace

bool SaveRollback::pending(const std::string& root) {
  return ::faccessat(AT_FDCWD, committed_dir(root).c_str(), F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

std::string SaveRollback::committed_dir(const std::string& root) { return root + "/" + kBackupDir; }

common::Result<bool> SaveRollback::recover(const std::string& root) {
  // Files move back into the committed places: readers wait (save_lock.hpp).
  auto lock = SaveLock::for_recovery(root);
  if (!lock) return lock.error();
  return roll_back_leftover(root);
}

common::Result<SaveRollback> SaveRollback::begin(const std::string& root) {
  if (auto s = roll_back_leftover(root); !s) return s.error();
  auto r = open_dir_path(root);
  if (!r) return r.error();
  if (!r->valid()) return common::Error::io("cannot open " + root + ": it is missing");
  auto partial = open_or_make_subdir(r->get(), kPartialDir, root + "/" + kPartialDir);
  if (!partial) return partial.error();
  if (auto s = link_tree(r->get(), partial->get(), root, true); !s) {
    (void)remove_tree_at(r->get(), kPartialDir, root + "/" + kPartialDir);  // the error below is the one to report
    return s.error();
  }
  if (::renameat(r->get(), kPartialDir, r->get(), kBackupDir) != 0) {
    return common::Error::io("cannot rename " + root + "/" + kPartialDir + ": " + std::strerror(errno));
  }
  return SaveRollback(root);
}

void SaveRollback::rollback() { (void)roll_back_leftover(root_); }  // on failure the backup stays: the next save retries

void SaveRollback::commit() {
  auto r = open_dir_path(root_);
  if (!r || !r->valid()) return;
  if (::renameat(r->get(), kBackupDir, r->get(), kDoneDir) != 0) return;
  (void)remove_tree_at(r->get(), kDoneDir, root_ + "/" + kDoneDir);  // a leftover is dropped by the next writer
}

}  // namespace hybrid
