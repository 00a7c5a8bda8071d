#include "nl_store/spill_store.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "common/atomic_file.hpp"
#include "common/sha256.hpp"
#include "hybrid/checkpoint_root/dir_fd.hpp"
#include "hybrid/memory/vram_adapter.hpp"
#include "hybrid/profiler/probe_ssd.hpp"
#include "nl_store/sequence_spill.hpp"

namespace nl_store {

std::uint64_t budget_needed(std::uint64_t largest_context, std::size_t concurrency) {
  return largest_context * std::max<std::size_t>(concurrency, 1);
}

std::uint64_t paged_rest(const SpillOptions& o) { return o.unpaged_bytes + o.trajectories * o.state_bytes; }

std::uint64_t budget_needed(const SpillOptions& o) {
  const std::uint64_t whole = o.largest_context;
  if (o.state_bytes == 0 || o.trajectories == 0) return budget_needed(whole, o.concurrency);
  const std::uint64_t paged = paged_rest(o) + 2 * o.trajectories * o.state_bytes;
  return budget_needed(std::min(whole, paged), o.concurrency);
}

common::Result<std::unique_ptr<SpillStore>> SpillStore::open(const std::string& run_dir, const SpillOptions& o, common::FileSystem& fs) {
  const std::uint64_t need = budget_needed(o);
  if (o.budget_bytes < need || o.budget_bytes == 0) {
    const bool paged = o.state_bytes > 0 && o.trajectories > 0;
    return common::Error::invalid_argument(
        std::to_string(o.budget_bytes) + " bytes cannot hold one step's working set: a level's saved state takes " +
        std::to_string(o.largest_context) + " bytes" +
        (paged ? ", of which " + std::to_string(o.unpaged_bytes) + " stay whole and " + std::to_string(o.trajectories) +
                     " state trajectories need their first state and two steps of " + std::to_string(o.state_bytes) +
                     " bytes each (" + std::to_string(o.unpaged_bytes) + " + 3 x " + std::to_string(o.trajectories) + " x " +
                     std::to_string(o.state_bytes) + ")"
               : std::string()) +
        (o.concurrency > 1 ? " and " + std::to_string(o.concurrency) + " sequences run at once" : std::string()) +
        "; at least " + std::to_string(need) + " bytes are needed");
  }
  // Where the blobs go: RUN/spill, or this run's own directory inside the tier's.
  std::string base = run_dir, sub = kSpillDirName;
  auto root = hybrid::open_dir_path(run_dir);
  if (!root.ok()) return root.error();
  if (!root->valid()) return common::Error::io(run_dir + ": no such directory");
  if (!o.tier_dir.empty()) {
    auto real_run = common::real_file_system().resolve_symlinks(run_dir);
    if (!real_run.ok()) return real_run.error();
    base = o.tier_dir;
    sub = "nltrain-spill-" + common::sha256_hex(*real_run).substr(0, 16);
    const std::string parent = common::parent_dir(o.tier_dir);
    const std::string name = o.tier_dir.substr(o.tier_dir.find_last_of('/') + 1);  // npos + 1: all of it
    auto up = hybrid::open_dir_path(parent);
    if (!up.ok()) return up.error();
    if (!up->valid() || name.empty() || name == "." || name == "..") {
      return common::Error::io(o.tier_dir + ": cannot make the tier's directory (its parent must exist)");
    }
    auto tier = hybrid::open_or_make_subdir(up->get(), name, o.tier_dir);  // a link there is refused, not followed
    if (!tier.ok()) return tier.error();
    root = std::move(tier);
  }
  if (!o.part.empty()) sub += "-" + o.part;
  const std::string shown = base + "/" + sub;
  // A link at RUN/spill is refused, not removed: someone put it there, and it says so.
  if (auto s = hybrid::open_subdir(root->get(), sub, shown); !s.ok()) return s.error();
  if (common::Status s = hybrid::remove_tree_at(root->get(), sub, shown); !s.ok()) return s.error();
  if (auto made = hybrid::open_or_make_subdir(root->get(), sub, shown); !made.ok()) return made.error();
  std::optional<std::uint64_t> disk_free;
  if (auto caps = hybrid::probe_ssd(common::real_file_system(), shown, {.measure = false}); caps.ok()) disk_free = caps->fs_free_bytes;
  return std::unique_ptr<SpillStore>(new SpillStore(base, sub, o, fs, disk_free));
}

SpillStore::SpillStore(std::string base_dir, std::string sub_name, const SpillOptions& o, common::FileSystem& fs,
                       std::optional<std::uint64_t> disk_free)
    : base_dir_(std::move(base_dir)),
      sub_name_(std::move(sub_name)),
      o_(o),
      scratch_(fs),
      mem_(dir(), std::make_unique<hybrid::NullVramAdapter>(), scratch_),
      disk_free_(disk_free) {
  if (o_.piece_bytes == 0) {
    // Paging (a share below one cache): the pieces' transfer buffers are RAM beyond the budget,
    // so they scale with the share too (a sixteenth of it), not with a cache it cannot hold.
    const std::uint64_t share = o_.budget_bytes / std::max<std::size_t>(o_.concurrency, 1);
    const std::uint64_t basis = o_.state_bytes > 0 && share < o_.largest_context ? std::min(o_.largest_context / 8, share / 16) : o_.largest_context / 8;
    o_.piece_bytes = std::clamp<std::uint64_t>(basis, std::uint64_t{1} << 20, std::uint64_t{16} << 20);
  }
  hybrid::CompressionPolicy codec;
  codec.default_kind = o.codec;
  mem_.set_compression_policy(codec);
}

SpillStore::~SpillStore() {
  if (auto root = hybrid::open_dir_path(base_dir_); root.ok() && root->valid()) {
    (void)hybrid::remove_tree_at(root->get(), sub_name_, dir());
  }
}

std::unique_ptr<tape::ContextSpill> SpillStore::for_sequence(std::size_t) {
  const std::lock_guard lock(mu_);
  return std::make_unique<SequenceSpill>(*this, next_hook_++);
}

SpillCost SpillStore::take_cost() {
  const std::lock_guard lock(mu_);
  SpillCost c = cost_;
  taken_ = taken_ + c;
  cost_ = SpillCost{};
  cost_.peak_resident_bytes = resident_;
  return c;
}

SpillCost SpillStore::total_cost() {
  const std::lock_guard lock(mu_);
  return taken_ + cost_;
}

SpillCost operator+(const SpillCost& a, const SpillCost& b) {
  return {a.spilled_bytes + b.spilled_bytes, a.restored_bytes + b.restored_bytes, a.stored_bytes + b.stored_bytes,
          std::max(a.peak_resident_bytes, b.peak_resident_bytes), a.write_s + b.write_s, a.read_s + b.read_s};
}

}  // namespace nl_store
