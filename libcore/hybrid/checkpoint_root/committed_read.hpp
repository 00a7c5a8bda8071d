#pragma once
// Reading a root another process may be saving into: `nltrain eval` or `atenia checkpoint
// inspect` on a run that checkpoints every step. A save replaces blobs in place (the committed
// ones wait in SaveRollback's backup meanwhile) and sweeps the old ones after its commit, so a
// read that overlapped a save could miss a blob, or take blobs of two checkpoints, and report a
// healthy root as damaged. read_committed() reads under the root's shared SaveLock, so a save of
// ours is either over or not begun; a pending backup then means a killed save, and the committed
// files are read from it. For writers that take no SaveLock (an older build), the read is also
// taken only when the root's commit mark (a save under way or not, and the committed manifest's
// bytes: every save writes a new one) is the same before and after it, and read again otherwise.
//
//   auto r = hybrid::read_committed(dir, [&](const hybrid::CacheRoot& root, bool pending) { ... });
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "hybrid/checkpoint_root/root_layout.hpp"
#include "hybrid/checkpoint_root/save_lock.hpp"
#include "hybrid/checkpoint_root/save_rollback.hpp"

namespace hybrid {

struct CommitMark {
  bool pending = false;
  std::optional<std::string> manifest;  // absent when it cannot be read
  bool operator==(const CommitMark&) const = default;
};

[[nodiscard]] CommitMark commit_mark(const std::string& root);

// read(committed root, whether a save is pending) -> R. Against writers without the lock: a save
// takes 0.1-0.7 s on our disks, and kCommittedReadAttempts with a growing pause wait out about
// 25 s of saves, after which the last answer is given as it is.
inline constexpr int kCommittedReadAttempts = 40;

template <class Read>
auto read_committed(const std::string& root, Read read) {
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt, 20) * 40));
    const auto lock = SaveLock::for_read(root);  // without it (cannot open), the marks alone
    const CommitMark before = commit_mark(root);
    const CacheRoot committed{before.pending ? SaveRollback::committed_dir(root) : root};
    auto out = read(committed, before.pending);
    const CommitMark after = commit_mark(root);
    if (after == before || attempt == kCommittedReadAttempts) return out;
  }
}

}  // namespace hybrid
