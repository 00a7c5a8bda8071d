#pragma once
// nltrain train --memory-budget: the rules' saved state (each level's cache, (s+1) d^2 floats per
// chunk) kept under a RAM budget by moving caches to RUN/spill/ between the forward that makes
// them and the backward that reads them (nl/step_spill.hpp, tape/context_spill.hpp).
//
// How it decides, per sequence computed at once (each gets budget / concurrency):
// - resident: the bytes of the caches in RAM. After a level records its cache there must be room
//   for the next one (the largest, nl/context_footprint.hpp) and before a level's backward for
//   its own; above that mark hybrid's SmartOffloadEngine (plan_with_tick: the high mark, then
//   size descending, id ascending) picks the victim. Ids are the record's index, so among equal
//   sizes the first recorded goes first: backward reads it last.
// - where to: hybrid's placement policy (decide_with_capacity) with RAM as the budget and the
//   disk's free space as statvfs saw it at open (less what this store wrote since): SSD, or a
//   refusal (a SpillError naming the numbers) when the disk lacks room.
// - how: hybrid's HybridMemoryManager on RUN/spill (or a named tier's directory: SpillOptions::tier),
//   a cache cut into blobs (1..16 MiB) as the tape hands it over (so no second copy of a whole
//   cache is ever made), each written atomically,
//   encoded with the shuffle+zstd codec (or raw), read back verified (CRC-32C, length), deleted.
// - below one whole cache per share (paging): each rule's state trajectories (nl/segmented_states.hpp)
//   are cut into segments of S steps, S = (share - rest) / (2 x trajectories x state bytes) with
//   rest = unpaged + one state per trajectory (budget_needed); the forward opens segments (room
//   made for each, and for its cache's rest) and seals them once it reads past them; a sealed
//   segment is a victim like a cache (ids "h.._sg..", in the order they were opened: the engine
//   moves out the one the backward reads last first); the backward reads a segment back when it
//   reaches it and drops it (RAM and blobs) once below it. The rest of a cache moves whole.
// The bits: a cache comes back byte for byte, so a budgeted run trains to the same losses,
// gradients and checkpoint as an unbudgeted one.
// Failures: a write or read that fails throws tape::SpillError from inside the step's tape, so the
// step fails (nl::StepFailure::io) before the parameters are updated; the run directory's
// checkpoint is never touched by this store. A killed process leaves blobs in RUN/spill (or its
// directory in a named tier) that the next open wipes; RUN/spill and a tier's directory are
// refused when they are symbolic links (nothing is written through a link leaving them).
// Overhead beyond the budget: while a cache is written or read, one piece (SpillOptions) and the codec's
// buffers for it, per sequence computed at once; the rest of the process (parameters, optimizer
// moments, tape activations, gradients, the allocator's own slack) is not counted in the budget.
//
// Measured (tests/bench/nltrain_memory_budget.sh, release build, this project's shared 2-core VM
// and virtual disk; d=256 s=512 K=2 delta, 20 steps): caches 260.5 MiB a step (one level's 130.3
// MiB). Before paging the least budget was one level's cache; now it is 2.9 MB (the rest of a
// cache, 2.1 MB, and three states). At a quarter of the caches, 65.1 MiB (segments of 124 steps):
// the losses and checkpoint equal the unbudgeted run's bit for bit; 2.2 GiB out and 2.2 GiB back
// a run; raw 0.9-1.8 GiB/s against dd's 0.64-1.6 GiB/s write(fsync)+read in the same run (ratio
// 0.70 under a load of 8, 1.0-2.0 under 3-4: dd's fsync decides), zstd 149-437 MiB/s (0.35-0.58:
// CPU-bound here, 0.83 of the bytes); peak RSS 198 MiB raw / 197 MiB zstd against 320 MiB
// unbudgeted (budget + 133 / 132 MiB, of which 60 MiB is what the unbudgeted run holds outside
// its caches; the rest, not profiled: pieces' transfer buffers and the allocator's slack).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "common/scratch_file_system.hpp"
#include "hybrid/codec/compression_types.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "nl/step_phases.hpp"
#include "nl/step_spill.hpp"

namespace nl_store {

inline constexpr const char* kSpillDirName = "spill";

struct SpillOptions {
  std::uint64_t budget_bytes = 0;
  std::size_t concurrency = 1;        // sequences computed at once (threads of a batch)
  std::uint64_t largest_context = 0;  // nl::largest_context_bytes for the run's model
  // Of that cache, what nl::context_footprint says a pager can cut: `trajectories` state
  // trajectories of `state_bytes` a step, the rest (`unpaged_bytes`) whole. state_bytes 0: none
  // (a rule without SegmentedStates), so every sequence needs one whole cache, as before paging.
  std::uint64_t unpaged_bytes = 0, state_bytes = 0;
  std::size_t trajectories = 0;
  hybrid::CompressionKind codec = hybrid::CompressionKind::shuffle_zstd;
  // A cache goes out in blobs of at most this many bytes: RAM beyond the budget while one is
  // written or read is one piece and the codec's buffers for it, not a copy of the whole cache.
  // 0: an eighth of the largest cache (paging: or a sixteenth of a sequence's share, if less),
  // within 1..16 MiB (each blob costs a file, a rename and a metadata record: pieces much smaller
  // than that spend the disk's time on those; larger ones, RAM).
  std::size_t piece_bytes = 0;
  // Told each cache's move out and back (nltrain train --trace-out draws them on its tier-move
  // track); null: nobody. It must take calls from several threads at once.
  nl::StepObserver* observer = nullptr;
  // The storage tier the blobs go to (nltrain train --spill-tier LABEL=DIR): a label for the
  // episodes and explanations, and a directory. Empty tier_dir: RUN/spill, as before tiers had
  // names. Otherwise the blobs go to TIER_DIR/nltrain-spill-<16 hex digits naming the run
  // directory>, so runs sharing a tier never touch each other's blobs and a run wipes only its
  // own leftovers there; TIER_DIR is made when missing (its parent must exist) and refused when
  // it is a link or not a directory.
  std::string tier = "ssd";
  std::string tier_dir;
  // A process's own directory among several that share one run (nltrain under mpirun: rank r > 0
  // is "rank<r>"): RUN/spill-<part>, or TIER_DIR/nltrain-spill-<hex>-<part>. Empty: the one
  // process of the run, RUN/spill or TIER_DIR/nltrain-spill-<hex>.
  std::string part;
};

// What moved, since the last take_cost: deterministic counts, then the wall clock.
struct SpillCost {
  std::uint64_t spilled_bytes = 0;   // caches moved out (their floats' bytes)
  std::uint64_t restored_bytes = 0;  // caches moved back
  std::uint64_t stored_bytes = 0;    // what the spilled caches took on disk, after the codec
  std::uint64_t peak_resident_bytes = 0;  // the most cache bytes in RAM at once
  double write_s = 0, read_s = 0;
};

// The sum of two costs: bytes and seconds add up, the peak is the larger.
[[nodiscard]] SpillCost operator+(const SpillCost& a, const SpillCost& b);

// The smallest budget that can work: every sequence computed at once needs one whole cache.
[[nodiscard]] std::uint64_t budget_needed(std::uint64_t largest_context, std::size_t concurrency);
// With paging (o.state_bytes > 0): every sequence needs the cache's rest, unpaged plus each
// trajectory's first state (nl/segmented_states.hpp keeps it whole), and two steps of each
// trajectory: concurrency x (unpaged + 3 x trajectories x state_bytes), or one whole cache when
// that is less. A budget whose share (budget / concurrency) is below one whole cache pages: the
// trajectories go out and back in segments of S = (share - rest) / (2 x trajectories x
// state_bytes) steps, rest = unpaged + trajectories x state_bytes.
[[nodiscard]] std::uint64_t budget_needed(const SpillOptions& o);
// unpaged + trajectories x state_bytes: what a paged cache keeps whole.
[[nodiscard]] std::uint64_t paged_rest(const SpillOptions& o);

class SpillStore final : public nl::StepSpill {
 public:
  // Refuses a budget below budget_needed (invalid_argument naming both numbers), and RUN/spill
  // when it is a link or not a directory (io); wipes what a killed run left there. `run_dir`
  // exists and its caller holds the run's lock. `fs`: the blobs' writes (tests inject faults).
  [[nodiscard]] static common::Result<std::unique_ptr<SpillStore>> open(const std::string& run_dir, const SpillOptions& o,
                                                                        common::FileSystem& fs = common::real_file_system());
  ~SpillStore() override;  // removes RUN/spill (best effort: the next open wipes it anyway)
  SpillStore(const SpillStore&) = delete;
  SpillStore& operator=(const SpillStore&) = delete;

  [[nodiscard]] std::unique_ptr<tape::ContextSpill> for_sequence(std::size_t b) override;
  // The cost since the last call.
  [[nodiscard]] SpillCost take_cost();
  // The cost since open (what take_cost handed out plus what it has not yet).
  [[nodiscard]] SpillCost total_cost();
  [[nodiscard]] const SpillOptions& options() const { return o_; }
  [[nodiscard]] std::string dir() const { return base_dir_ + "/" + sub_name_; }

 private:
  friend class SequenceSpill;
  SpillStore(std::string base_dir, std::string sub_name, const SpillOptions& o, common::FileSystem& fs,
             std::optional<std::uint64_t> disk_free);

  std::string base_dir_, sub_name_;  // the blobs' directory: base_dir_/sub_name_
  SpillOptions o_;
  std::mutex mu_;  // the sequences of a batch share the manager, the counters and the disk
  common::ScratchFileSystem scratch_;  // blobs need no fsync (common/scratch_file_system.hpp says why)
  hybrid::HybridMemoryManager mem_;
  std::optional<std::uint64_t> disk_free_;  // statvfs at open, less what is on disk since
  std::uint64_t next_hook_ = 0, resident_ = 0, next_segment_ = 0;
  SpillCost cost_, taken_;
};

}  // namespace nl_store
