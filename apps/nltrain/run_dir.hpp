#pragma once
// A training run's directory (--out / --resume / --checkpoint): DIR/checkpoint.nltrain (the
// checkpoint, replaced atomically); the trainer writing DIR holds a lock on it (lock_run_dir).
#include <cstdint>
#include <string>

#include "common/dir_lock.hpp"
#include "common/result.hpp"
#include "nl/checkpoint.hpp"
#include "nl_audit/recorder.hpp"

namespace nltrain::cli {

inline constexpr const char* kCheckpointFile = "checkpoint.nltrain";

// What nltrain keeps in the checkpoint's run record (JSON): the data it trains on and the plan.
struct RunRecord {
  std::string data;          // the --data path, empty for the embedded corpus
  std::string data_sha256;
  std::uint64_t data_bytes = 0;
  std::uint64_t steps = 0;   // the planned total
  std::uint64_t checkpoint_every = 0;
  nl_audit::ChainPosition receipts;  // where the run's step receipts stand (next_index 0: none yet)
  std::uint64_t batch = 1;           // sequences per step (--batch); the checkpoint holds as many streams
};

[[nodiscard]] std::string encode_run(const RunRecord& r);
[[nodiscard]] common::Result<RunRecord> decode_run(const std::string& text, const std::string& what);

[[nodiscard]] std::string checkpoint_path(const std::string& dir);

// Creates DIR when missing and locks it (common::DirLock on the directory itself, flock(2)),
// failing at once when another trainer holds it: two trainers never write one run directory,
// and the kernel drops the lock when the process dies.
[[nodiscard]] common::Result<common::DirLock> lock_run_dir(const std::string& dir);

// Encodes and writes DIR/checkpoint.nltrain atomically (temp, fsync, rename): a failure leaves
// the previous checkpoint as it was.
[[nodiscard]] common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint& c);
// Reads and verifies DIR/checkpoint.nltrain (DIR may also name the file itself).
[[nodiscard]] common::Result<nl::Checkpoint> load_checkpoint(const std::string& dir);
[[nodiscard]] bool has_checkpoint(const std::string& dir);

}  // namespace nltrain::cli
