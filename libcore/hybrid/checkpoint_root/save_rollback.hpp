#pragma once
// Makes `checkpoint save` all-or-nothing over its root. Before the save writes anything, every
// file under the root gets a hard link in ROOT/.save-backup.partial (same relative path), which
// is renamed to ROOT/.save-backup once complete. Every writer in the root replaces files by
// rename, so a link keeps the old bytes of a file the save overwrites. So while ROOT/.save-backup
// exists it holds exactly the committed checkpoint: readers (inspect, nltrain) read it from there,
// and rolling back links its files back into place (the backup stays whole until the rollback is
// complete, so a kill during a rollback leaves it to be redone) and removes every file the save
// added. commit() drops it.
// A save killed part-way leaves .save-backup behind; only writers (the next save, `checkpoint
// recover`) roll it back, with the root locked. Every step walks the root through descriptors
// (dir_fd.hpp), so a symbolic link planted in the root is refused, never followed.
#include <string>

#include "common/result.hpp"

namespace hybrid {

class SaveRollback {
 public:
  // Recovers an interrupted earlier save, then links the current files. Call with the root locked.
  [[nodiscard]] static common::Result<SaveRollback> begin(const std::string& root);
  // Read-only: a save into `root` is running or was killed (ROOT/.save-backup exists).
  [[nodiscard]] static bool pending(const std::string& root);
  // Where the committed files are while pending(root).
  [[nodiscard]] static std::string committed_dir(const std::string& root);
  // With the root locked: rolls an interrupted save back and drops the leftovers of one that was
  // killed before it changed anything or after it committed. True when a save was rolled back.
  [[nodiscard]] static common::Result<bool> recover(const std::string& root);

  // Puts back every file as it was at begin() and removes the ones added since. Best effort:
  // it runs on a path that already reports an error.
  void rollback();
  // The save is complete: the links go.
  void commit();

 private:
  explicit SaveRollback(std::string root) : root_(std::move(root)) {}
  std::string root_;
};

}  // namespace hybrid
