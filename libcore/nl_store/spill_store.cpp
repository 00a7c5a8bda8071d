#include "nl_store/spill_store.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "common/atomic_file.hpp"
#include "hybrid/checkpoint_root/dir_fd.hpp"
#include "hybrid/memory/vram_adapter.hpp"
#include "hybrid/offload/smart_offload_engine.hpp"
#include "hybrid/placement/capacity_placement.hpp"
#include "hybrid/profiler/probe_ssd.hpp"
#include "tape/float_pool.hpp"
#include "tape/tape.hpp"
#include "tape/tape_error.hpp"

namespace nl_store {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

[[noreturn]] void fail(const std::string& what, const common::Error& e) { throw tape::SpillError("spill", what + ": " + e.message(), {}); }

// The offload engine as a victim picker: pressure is (resident + room wanted) / share, so it acts
// at once above the budget (high mark 1) and every call may take one tensor (no cooldown: a cache
// goes out once and comes back once).
hybrid::OffloadConfig picker_config() {
  hybrid::OffloadConfig c;
  c.ram_high = 1.0F;
  c.ram_low = 1.0F;
  c.cooldown_ticks = 0;
  c.max_actions_per_tick = 1;
  return c;
}

}  // namespace

// One sequence's tape: its caches, the segments of their state trajectories (tape/state_pager.hpp),
// which of them are out, and the budget share they live in.
class SequenceSpill final : public tape::ContextSpill, public tape::StatePager {
 public:
  SequenceSpill(SpillStore& store, std::uint64_t hook) : store_(store), hook_(hook), engine_(picker_config()) {
    share_ = store.o_.budget_bytes / store.o_.concurrency;
    // Paging: only when one whole cache does not fit the share (otherwise the bits and the moves
    // are those of whole caches, as before paging existed).
    paging_ = store.o_.state_bytes > 0 && store.o_.trajectories > 0 && share_ < store.o_.largest_context;
    reserve_ = paging_ ? paged_rest(store.o_) : 0;
  }
  ~SequenceSpill() override {
    const std::lock_guard lock(store_.mu_);
    for (const auto& [op, e] : live_) {
      for (std::size_t k = 0; k < e.pieces; ++k) (void)store_.mem_.remove_tensor(id(op, k));  // deletes the blobs
      (void)store_.mem_.remove_tensor(id(op));
      if (!e.out) store_.resident_ -= e.bytes;
    }
    for (auto& [sg, g] : segs_) drop(sg, g);
  }
  SequenceSpill(const SequenceSpill&) = delete;
  SequenceSpill& operator=(const SequenceSpill&) = delete;

  void recorded(tape::Tape& t, tape::ContextRef r) override {
    const std::lock_guard lock(store_.mu_);
    tape_ = &t;
    live_[r.op_index] = {r.bytes, false};
    store_.mem_.register_tensor(id(r.op_index), r.bytes, hybrid::MemoryTier::ram);  // its footprint; the bytes stay in the tape
    add_resident(r.bytes);
    // The next level's forward makes one more: a whole cache, or (paging) its rest, its segments
    // asking for their own room as they come.
    make_room(t, paging_ ? paged_rest(store_.o_) : store_.o_.largest_context);
  }

  void needed(tape::Tape& t, tape::ContextRef r) override {
    const std::lock_guard lock(store_.mu_);
    tape_ = &t;
    reserve_ = 0;  // backward: no forward to come
    Entry& e = live_.at(r.op_index);
    pinned_ = r.op_index;
    if (!e.out) return;
    make_room(t, e.bytes);
    const auto t0 = Clock::now();
    std::size_t k = 0;
    // Each field is filled from its pieces in order, each piece read back (verified) and deleted.
    t.put_context(r.op_index, [&](std::span<std::uint8_t> field) {
      for (std::size_t at = 0; at < field.size(); ++k) at += read_piece(id(r.op_index, k), field.subspan(at));
    });
    store_.mem_.register_tensor(id(r.op_index), e.bytes, hybrid::MemoryTier::ram);  // in RAM again: a candidate
    store_.cost_.read_s += since(t0);
    store_.cost_.restored_bytes += e.bytes;
    tell(id(r.op_index), e.bytes, nl::TierDirection::restore, t0);
    e.out = false;
    e.pieces = 0;
    add_resident(e.bytes);
  }

  void released(tape::Tape&, tape::ContextRef r) override {
    const std::lock_guard lock(store_.mu_);
    const auto it = live_.find(r.op_index);
    if (it == live_.end()) return;
    if (!it->second.out) store_.resident_ -= it->second.bytes, resident_ -= it->second.bytes;
    (void)store_.mem_.remove_tensor(id(r.op_index));
    live_.erase(it);
    pinned_.reset();
  }

  [[nodiscard]] tape::StatePager* state_pager() override { return paging_ ? this : nullptr; }

  // ── StatePager: the trajectories' segments ──────────────────────────────────────
  std::size_t segment_steps(std::size_t count, std::size_t state_floats) override {
    const std::lock_guard lock(store_.mu_);
    const std::uint64_t state = state_floats * sizeof(float), ways = 2 * store_.o_.trajectories;
    const std::uint64_t rest = paged_rest(store_.o_);
    if (!paging_ || state == 0 || share_ <= rest) return 0;
    const std::uint64_t steps = (share_ - rest) / (ways * state);
    return steps >= count ? 0 : static_cast<std::size_t>(std::max<std::uint64_t>(steps, 1));
  }

  std::uint64_t opened(std::vector<float>& data, std::size_t floats) override {
    const std::lock_guard lock(store_.mu_);
    const std::uint64_t sg = store_.next_segment_++, bytes = floats * sizeof(float);
    if (tape_ != nullptr) make_room(*tape_, bytes + reserve_);
    else make_room_segments(bytes + reserve_);
    segs_[sg] = {&data, bytes, floats};
    store_.mem_.register_tensor(seg_id(sg), bytes, hybrid::MemoryTier::ram);
    add_resident(bytes);
    return sg;
  }

  void sealed(std::uint64_t sg) override {
    const std::lock_guard lock(store_.mu_);
    segs_.at(sg).pinned = false;
  }

  void needed(std::uint64_t sg) override {
    const std::lock_guard lock(store_.mu_);
    Segment& g = segs_.at(sg);
    g.pinned = true;
    if (!g.out) return;
    if (tape_ != nullptr) make_room(*tape_, g.bytes);
    else make_room_segments(g.bytes);
    const auto t0 = Clock::now();
    *g.data = tape::take_cache_buffer<float>(g.floats);
    const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(g.data->data()), g.bytes);
    for (std::size_t k = 0, at = 0; at < bytes.size(); ++k) at += read_piece(seg_id(sg, k), bytes.subspan(at));
    store_.mem_.register_tensor(seg_id(sg), g.bytes, hybrid::MemoryTier::ram);
    store_.cost_.read_s += since(t0);
    store_.cost_.restored_bytes += g.bytes;
    tell(seg_id(sg), g.bytes, nl::TierDirection::restore, t0);
    g.out = false;
    g.pieces = 0;
    add_resident(g.bytes);
  }

  void released(std::uint64_t sg) noexcept override {
    const std::lock_guard lock(store_.mu_);
    const auto it = segs_.find(sg);
    if (it == segs_.end()) return;
    drop(sg, it->second);
    segs_.erase(it);
  }

 private:
  struct Entry {
    std::uint64_t bytes = 0;
    bool out = false;
    std::size_t pieces = 0;  // blobs written for it (while out)
  };
  struct Segment {
    std::vector<float>* data = nullptr;  // the trajectory's vector (its address stays: state_pager.hpp)
    std::uint64_t bytes = 0;
    std::size_t floats = 0;
    bool pinned = true;  // being written by the forward, or read by the backward
    bool out = false;
    std::size_t pieces = 0;
  };

  // Letters, digits, '_' only (SsdCache keeps such names as they are), zero-padded so that id
  // order is creation order: a record's index ("op"), or a segment's number in the order the
  // forwards opened them ("sg", the store's counter shared by sequences), so that among equal
  // sizes the engine moves out first what the backward reads last. With `piece`: one blob of it.
  [[nodiscard]] std::string key(const char* kind, int width, std::uint64_t n, std::optional<std::size_t> piece) const {
    char buf[80];
    const int len = std::snprintf(buf, sizeof buf, "h%08llu_%s%0*llu", static_cast<unsigned long long>(hook_), kind, width,
                                  static_cast<unsigned long long>(n));
    if (piece) std::snprintf(buf + len, sizeof buf - static_cast<std::size_t>(len), "_p%06zu", *piece);
    return buf;
  }
  [[nodiscard]] std::string id(std::size_t op, std::optional<std::size_t> piece = std::nullopt) const { return key("op", 8, op, piece); }
  [[nodiscard]] std::string seg_id(std::uint64_t sg, std::optional<std::size_t> piece = std::nullopt) const {
    return key("sg", 12, sg, piece);
  }

  [[nodiscard]] std::uint64_t file_size(const std::string& path) const {
    auto n = store_.mem_.ssd_cache().file_system().file_size(path);
    return n.ok() ? *n : 0;
  }

  void tell(const std::string& key, std::uint64_t bytes, nl::TierDirection d, Clock::time_point begin) const {
    if (store_.o_.observer != nullptr) store_.o_.observer->tier_move({"tape cache " + key, bytes, d, begin, Clock::now()});
  }

  void add_resident(std::uint64_t bytes) {
    resident_ += bytes;
    store_.resident_ += bytes;
    store_.cost_.peak_resident_bytes = std::max(store_.cost_.peak_resident_bytes, store_.resident_);
  }

  // A segment gone for good: its RAM, its blobs, its place in the count.
  void drop(std::uint64_t sg, Segment& g) noexcept {
    for (std::size_t k = 0; k < g.pieces; ++k) (void)store_.mem_.remove_tensor(seg_id(sg, k));
    (void)store_.mem_.remove_tensor(seg_id(sg));
    if (!g.out) store_.resident_ -= g.bytes, resident_ -= g.bytes;
    std::vector<float>().swap(*g.data);  // freed, not pooled (as take_context does)
    g.out = true, g.pieces = 0;
  }

  // Piece `key` read back (verified), copied to the start of `to`, deleted; returns its bytes.
  std::size_t read_piece(const std::string& key, std::span<std::uint8_t> to) {
    auto plan = store_.mem_.plan_move(key, hybrid::MemoryTier::ram, hybrid::empty_memory_snapshot());
    if (!plan.ok()) fail("cannot read back " + key + " from " + store_.dir(), plan.error());
    const auto* ssd = hybrid::as_ssd(store_.mem_.backing(key));
    const std::uint64_t on_disk = ssd != nullptr ? file_size(ssd->path) : 0;
    if (common::Status s = store_.mem_.apply_move(key, *plan); !s.ok()) fail("cannot read back " + key + " from " + store_.dir(), s.error());
    const hybrid::RamBacking* ram = hybrid::as_ram(store_.mem_.backing(key));
    if (ram == nullptr || ram->data.size() > to.size() || ram->data.empty()) {
      throw tape::SpillError("spill", key + " in " + store_.dir() + " does not fit the field it was cut from", {});
    }
    const std::size_t n = ram->data.size();
    std::memcpy(to.data(), ram->data.data(), n);
    (void)store_.mem_.remove_tensor(key);
    if (store_.disk_free_) *store_.disk_free_ += on_disk;
    return n;
  }

  // Piece `blob` written (atomically, through the codec) to the store's directory.
  void write_piece(const std::string& blob, std::span<const std::uint8_t> piece) {
    if (common::Status s = store_.mem_.register_tensor_with_data(blob, hybrid::Bytes(piece.begin(), piece.end()), hybrid::MemoryTier::ssd);
        !s.ok()) {
      // A write that failed after its rename (the directory's fsync) left a blob the manager
      // does not know of: remove it here, or it stays until the store closes.
      (void)store_.mem_.ssd_cache().delete_blob(store_.mem_.ssd_cache().blob_path(blob));
      fail("cannot write the step's saved state to " + store_.dir(), s.error());
    }
    const auto* ssd = hybrid::as_ssd(store_.mem_.backing(blob));
    const std::uint64_t on_disk = ssd != nullptr ? file_size(ssd->path) : 0;
    store_.cost_.stored_bytes += on_disk;
    if (store_.disk_free_) *store_.disk_free_ -= std::min(*store_.disk_free_, on_disk);
  }

  // The candidates to move out: resident caches but the one backward reads, and sealed resident
  // segments that nobody is reading.
  [[nodiscard]] std::vector<std::string> candidates(bool with_records) const {
    std::vector<std::string> ids;
    if (with_records) {
      for (const auto& [op, e] : live_) {
        if (!e.out && e.bytes > 0 && op != pinned_) ids.push_back(id(op));  // moving nothing frees nothing
      }
    }
    for (const auto& [sg, g] : segs_) {
      if (!g.out && !g.pinned && g.bytes > 0) ids.push_back(seg_id(sg));
    }
    return ids;
  }

  // Moves caches and segments out until `room` more bytes fit in this sequence's share (what is
  // being read or written stays).
  void make_room(tape::Tape& t, std::uint64_t room) { make_room_with(&t, room); }
  // Before the tape's first record: only segments can go (there is no record yet).
  void make_room_segments(std::uint64_t room) { make_room_with(nullptr, room); }

  void make_room_with(tape::Tape* t, std::uint64_t room) {
    while (resident_ + room > share_) {
      const std::vector<std::string> ids = candidates(t != nullptr);
      if (ids.empty()) return;  // budget_needed guarantees what is pinned plus `room` fit
      hybrid::MemorySnapshot snap;
      snap.ram.pressure = static_cast<float>(static_cast<double>(resident_ + room) / static_cast<double>(share_));
      const hybrid::OffloadPlan plan = engine_.plan_with_tick(snap, ids, store_.mem_, ++tick_);
      if (plan.actions.empty()) return;
      const std::string& key = plan.actions.front().tensor_id;
      if (key.find("_sg") != std::string::npos) {
        spill_segment(std::stoull(key.substr(key.find("_sg") + 3)), room);
      } else {
        spill(*t, key, room);
      }
    }
  }

  // Where a victim goes: the placement policy, with RAM as this share of the budget; SSD or a refusal.
  void check_placement(std::uint64_t bytes, std::uint64_t room) const {
    hybrid::GlobalHardwareSnapshot hw;
    hw.ram.total_bytes = share_;
    hw.ram.free_bytes = resident_ + room >= share_ ? 0 : share_ - resident_ - room;
    hw.ssd.fs_free_bytes = store_.disk_free_;
    const hybrid::CapacityDecision where = hybrid::decide_with_capacity({bytes / sizeof(float), sizeof(float), {}}, hw);
    if (where.target != hybrid::PlacementTarget::ssd) {
      throw tape::SpillError("spill", "no room for the step's saved state above the memory budget (" + where.reason + ")", {});
    }
  }

  void spill(tape::Tape& t, const std::string& key, std::uint64_t room) {
    const std::size_t op = std::stoul(key.substr(key.find("_op") + 3));
    Entry& e = live_.at(op);
    check_placement(e.bytes, room);
    const auto t0 = Clock::now();
    // Each piece goes to disk as it comes: the cache's own fields are the only full copy.
    (void)t.take_context(op, store_.o_.piece_bytes, [&](std::span<const std::uint8_t> piece) {
      write_piece(id(op, e.pieces), piece);
      ++e.pieces;
    });
    e.out = true;
    store_.mem_.register_tensor(key, e.bytes, hybrid::MemoryTier::ssd);  // out: no longer a candidate
    store_.cost_.write_s += since(t0);
    store_.cost_.spilled_bytes += e.bytes;
    tell(key, e.bytes, nl::TierDirection::spill, t0);
    resident_ -= e.bytes;
    store_.resident_ -= e.bytes;
  }

  void spill_segment(std::uint64_t sg, std::uint64_t room) {
    Segment& g = segs_.at(sg);
    check_placement(g.bytes, room);
    const auto t0 = Clock::now();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(g.data->data());
    g.out = true;  // from here on: a write that throws leaves it out for good, never half-read
    for (std::uint64_t at = 0; at < g.bytes; at += store_.o_.piece_bytes, ++g.pieces) {
      write_piece(seg_id(sg, g.pieces), {bytes + at, static_cast<std::size_t>(std::min<std::uint64_t>(store_.o_.piece_bytes, g.bytes - at))});
    }
    std::vector<float>().swap(*g.data);  // freed, not pooled: moved out to save RAM
    store_.mem_.register_tensor(seg_id(sg), g.bytes, hybrid::MemoryTier::ssd);  // out: no longer a candidate
    store_.cost_.write_s += since(t0);
    store_.cost_.spilled_bytes += g.bytes;
    tell(seg_id(sg), g.bytes, nl::TierDirection::spill, t0);
    resident_ -= g.bytes;
    store_.resident_ -= g.bytes;
  }

  SpillStore& store_;
  std::uint64_t hook_;
  std::uint64_t share_ = 0, resident_ = 0, tick_ = 0, reserve_ = 0;
  bool paging_ = false;
  tape::Tape* tape_ = nullptr;  // the tape, once it has a record (a segment's room may move whole caches)
  std::map<std::size_t, Entry> live_;
  std::map<std::uint64_t, Segment> segs_;
  std::optional<std::size_t> pinned_;
  hybrid::SmartOffloadEngine engine_;
};

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
