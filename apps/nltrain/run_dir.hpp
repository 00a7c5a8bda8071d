#pragma once
// A training run's directory (--out / --resume / --checkpoint): DIR/checkpoint.nltrain (the
// checkpoint, replaced atomically) and DIR/lock (held with flock(2) by the trainer writing it,
// so two trainers never write one directory; the kernel drops it when the process dies).
#include <cstdint>
#include <string>

#include "common/result.hpp"
#include "nl/checkpoint.hpp"

namespace nltrain {

inline constexpr const char* kCheckpointFile = "checkpoint.nltrain";

// What nltrain keeps in the checkpoint's run record (JSON): the data it trains on and the plan.
struct RunRecord {
  std::string data;          // the --data path, empty for the embedded corpus
  std::string data_sha256;
  std::uint64_t data_bytes = 0;
  std::uint64_t steps = 0;   // the planned total
  std::uint64_t checkpoint_every = 0;
};

[[nodiscard]] std::string encode_run(const RunRecord& r);
[[nodiscard]] common::Result<RunRecord> decode_run(const std::string& text, const std::string& what);

[[nodiscard]] std::string checkpoint_path(const std::string& dir);

// Holds DIR/lock until destroyed. Creates DIR when missing.
class DirLock {
 public:
  static common::Result<DirLock> acquire(const std::string& dir);
  DirLock(DirLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  DirLock& operator=(DirLock&&) = delete;
  ~DirLock();

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_;
};

// Encodes and writes DIR/checkpoint.nltrain atomically (temp, fsync, rename): a failure leaves
// the previous checkpoint as it was.
[[nodiscard]] common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint& c);
// Reads and verifies DIR/checkpoint.nltrain (DIR may also name the file itself).
[[nodiscard]] common::Result<nl::Checkpoint> load_checkpoint(const std::string& dir);
[[nodiscard]] bool has_checkpoint(const std::string& dir);

}  // namespace nltrain
