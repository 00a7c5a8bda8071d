#pragma once
// Makes `checkpoint save` all-or-nothing over its root. Before the save writes anything, every
// file under the root gets a hard link in ROOT/.save-backup (same relative path). Every writer
// in the root replaces files by rename, so a link keeps the old bytes of a file the save
// overwrites (a blob with the same id and length but new bytes, the manifest, the file list).
// rollback() renames the links back over their originals and removes every file the save added;
// commit() drops the links. A save killed part-way leaves .save-backup behind: the next save
// rolls it back before it starts, so the previous checkpoint is what it finds.
#include <set>
#include <string>

#include "common/result.hpp"

namespace atenia::cli {

class SaveRollback {
 public:
  // Recovers an interrupted earlier save, then links the current files. Call with the root locked.
  [[nodiscard]] static common::Result<SaveRollback> begin(const std::string& root);
  // For readers (restore, inspect): when a save into `root` was killed part-way, waits for the
  // root's lock and rolls that save back, so a reader never sees its half-replaced blobs.
  [[nodiscard]] static common::Status recover_interrupted(const std::string& root);

  // Puts back every file as it was at begin() and removes the ones added since. Best effort:
  // it runs on a path that already reports an error.
  void rollback();
  // The save is complete: the links go.
  void commit();

 private:
  explicit SaveRollback(std::string root) : root_(std::move(root)) {}
  std::string root_;
  std::set<std::string> before_;  // paths under root_ at begin(), backup excluded
};

}  // namespace atenia::cli
