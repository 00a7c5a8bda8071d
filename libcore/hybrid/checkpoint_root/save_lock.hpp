#pragma once
// Saves and reads of one checkpoint root take turns: a save (and a recovery, which also moves
// committed files) holds an exclusive flock on ROOT/checkpoint for its whole length, a reader
// (committed_read.hpp) a shared one for its read. The root's own DirLock is another matter: it
// keeps a second writer out for a whole run (nltrain) or command (atenia), and a reader never
// takes it, so a reader could meet a save half done; this lock is what lets it wait for the
// save to end instead. Locking the directory leaves no file behind, and opening it to lock it
// (O_RDONLY) writes nothing, so a command that only reads stays one that never writes.
#include <optional>
#include <string>
#include <utility>

#include "common/dir_lock.hpp"
#include "common/result.hpp"

namespace hybrid {

class SaveLock {
 public:
  // Exclusive, for a writer: ROOT/checkpoint is made if missing (never through a symbolic link).
  [[nodiscard]] static common::Result<SaveLock> for_save(const std::string& root);
  // Exclusive, for a recovery, which creates nothing; and shared, for a reader. Both are an
  // empty lock (nothing held) when ROOT/checkpoint is missing: nothing was committed there.
  [[nodiscard]] static common::Result<SaveLock> for_recovery(const std::string& root);
  [[nodiscard]] static common::Result<SaveLock> for_read(const std::string& root);

 private:
  explicit SaveLock(std::optional<common::DirLock> lock) : lock_(std::move(lock)) {}
  std::optional<common::DirLock> lock_;  // empty: nothing to hold (no ROOT/checkpoint yet)
};

}  // namespace hybrid
