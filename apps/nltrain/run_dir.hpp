#pragma once
// A training run's directory (--out / --resume / --checkpoint): a hybrid checkpoint root holding
// the trainer's state (nl_store/run_store.hpp; an old DIR/checkpoint.nltrain still loads); the
// trainer writing DIR holds a lock on it (lock_run_dir) for the whole run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/dir_lock.hpp"
#include "common/result.hpp"
#include "nl/checkpoint.hpp"
#include "nl/token_data.hpp"
#include "nl_audit/recorder.hpp"
#include "nl_store/state_file.hpp"

namespace nltrain::cli {

// What nltrain keeps in the checkpoint's run record (JSON): the data it trains on and the plan.
struct RunRecord {
  std::string data;          // the --data path, empty for the embedded corpus
  std::string data_sha256;
  std::uint64_t data_bytes = 0;
  std::uint64_t steps = 0;   // the planned total
  std::uint64_t checkpoint_every = 0;
  nl_audit::ChainPosition receipts;  // where the run's step receipts stand (next_index 0: none yet)
  // How the chain's receipts are written (--receipt-every, --compact-receipts), kept so that a
  // resumed run continues the chain as it was (bp verify nltrain refuses a chain whose every
  // changes); unset in a record written before they were kept.
  std::optional<std::uint64_t> receipt_every;
  bool compact_receipts = false;
  std::uint64_t batch = 1;           // sequences per step (--batch); the checkpoint holds as many streams
  nl::TokenFormat data_format = nl::TokenFormat::bytes;  // --data-format; data_bytes counts the file's bytes
};

[[nodiscard]] std::string encode_run(const RunRecord& r);
[[nodiscard]] common::Result<RunRecord> decode_run(const std::string& text, const std::string& what);

// The file reports name for DIR's checkpoint: its manifest, or the old checkpoint file where DIR
// holds only that (or DIR is such a file).
[[nodiscard]] std::string checkpoint_path(const std::string& dir);

// A run directory this process holds: its lock, and the directories lock_run_dir created for it
// (DIR and missing parents), removed again when this goes while they are still empty (rmdir(2),
// which never removes anything else): a start refused after the directory was taken leaves
// nothing behind, and one that saved a checkpoint keeps it.
class RunDirLock {
 public:
  RunDirLock(common::DirLock lock, std::vector<std::string> created) : lock_(std::move(lock)), created_(std::move(created)) {}
  RunDirLock(RunDirLock&&) noexcept = default;  // the moved-from one has nothing to remove
  RunDirLock& operator=(RunDirLock&&) = delete;
  ~RunDirLock();

 private:
  common::DirLock lock_;
  std::vector<std::string> created_;  // DIR first, then its parents
};

// Creates DIR when missing and locks it (common::DirLock on the directory itself, flock(2)),
// failing at once when another trainer holds it: two trainers never write one run directory,
// and the kernel drops the lock when the process dies.
[[nodiscard]] common::Result<RunDirLock> lock_run_dir(const std::string& dir);

// Saves into DIR (locked) all or nothing: a failure leaves the previous checkpoint as it was.
[[nodiscard]] common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint& c);
[[nodiscard]] common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint64& c);  // an --fp64 run's
// Reads and verifies DIR's fp32 checkpoint (DIR may also name an old checkpoint file itself).
[[nodiscard]] common::Result<nl::Checkpoint> load_checkpoint(const std::string& dir);
// Either precision (nltrain train --resume).
[[nodiscard]] common::Result<nl_store::AnyCheckpoint> load_any_checkpoint(const std::string& dir);
[[nodiscard]] bool has_checkpoint(const std::string& dir);

}  // namespace nltrain::cli
