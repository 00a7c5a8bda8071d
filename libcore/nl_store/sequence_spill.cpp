#include "nl_store/sequence_spill.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "hybrid/memory/memory_types.hpp"
#include "hybrid/memory/storage_backing.hpp"
#include "hybrid/placement/capacity_placement.hpp"
#include "tape/float_pool.hpp"
#include "tape/tape_error.hpp"

namespace nl_store {

SequenceSpill::SequenceSpill(SpillStore& store, std::uint64_t hook) : store_(store), hook_(hook), engine_(picker_config()) {
  share_ = store.o_.budget_bytes / store.o_.concurrency;
  // Paging: only when one whole cache does not fit the share (otherwise the bits and the moves
  // are those of whole caches, as before paging existed).
  paging_ = store.o_.state_bytes > 0 && store.o_.trajectories > 0 && share_ < store.o_.largest_context;
  reserve_ = paging_ ? paged_rest(store.o_) : 0;
}

SequenceSpill::~SequenceSpill() {
  const std::lock_guard lock(store_.mu_);
  for (const auto& [op, e] : live_) {
    for (std::size_t k = 0; k < e.pieces; ++k) (void)store_.mem_.remove_tensor(id(op, k));  // deletes the blobs
    (void)store_.mem_.remove_tensor(id(op));
    if (!e.out) store_.resident_ -= e.bytes;
  }
  for (auto& [sg, g] : segs_) drop(sg, g);
}

void SequenceSpill::recorded(tape::Tape& t, tape::ContextRef r) {
  const std::lock_guard lock(store_.mu_);
  tape_ = &t;
  live_[r.op_index] = {r.bytes, false};
  store_.mem_.register_tensor(id(r.op_index), r.bytes, hybrid::MemoryTier::ram);  // its footprint; the bytes stay in the tape
  add_resident(r.bytes);
  // The next level's forward makes one more: a whole cache, or (paging) its rest, its segments
  // asking for their own room as they come.
  make_room(t, paging_ ? paged_rest(store_.o_) : store_.o_.largest_context);
}

void SequenceSpill::needed(tape::Tape& t, tape::ContextRef r) {
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

void SequenceSpill::released(tape::Tape&, tape::ContextRef r) {
  const std::lock_guard lock(store_.mu_);
  const auto it = live_.find(r.op_index);
  if (it == live_.end()) return;
  if (!it->second.out) store_.resident_ -= it->second.bytes, resident_ -= it->second.bytes;
  (void)store_.mem_.remove_tensor(id(r.op_index));
  live_.erase(it);
  pinned_.reset();
}

std::size_t SequenceSpill::segment_steps(std::size_t count, std::size_t state_floats) {
  const std::lock_guard lock(store_.mu_);
  const std::uint64_t state = state_floats * sizeof(float), ways = 2 * store_.o_.trajectories;
  const std::uint64_t rest = paged_rest(store_.o_);
  if (!paging_ || state == 0 || share_ <= rest) return 0;
  const std::uint64_t steps = (share_ - rest) / (ways * state);
  return steps >= count ? 0 : static_cast<std::size_t>(std::max<std::uint64_t>(steps, 1));
}

std::uint64_t SequenceSpill::opened(std::vector<float>& data, std::size_t floats) {
  const std::lock_guard lock(store_.mu_);
  const std::uint64_t sg = store_.next_segment_++, bytes = floats * sizeof(float);
  if (tape_ != nullptr) make_room(*tape_, bytes + reserve_);
  else make_room_segments(bytes + reserve_);
  segs_[sg] = {&data, bytes, floats};
  store_.mem_.register_tensor(seg_id(sg), bytes, hybrid::MemoryTier::ram);
  add_resident(bytes);
  return sg;
}

void SequenceSpill::sealed(std::uint64_t sg) {
  const std::lock_guard lock(store_.mu_);
  segs_.at(sg).pinned = false;
}

void SequenceSpill::needed(std::uint64_t sg) {
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

void SequenceSpill::released(std::uint64_t sg) noexcept {
  const std::lock_guard lock(store_.mu_);
  const auto it = segs_.find(sg);
  if (it == segs_.end()) return;
  drop(sg, it->second);
  segs_.erase(it);
}

std::string SequenceSpill::key(const char* kind, int width, std::uint64_t n, std::optional<std::size_t> piece) const {
  char buf[80];
  const int len = std::snprintf(buf, sizeof buf, "h%08llu_%s%0*llu", static_cast<unsigned long long>(hook_), kind, width,
                                static_cast<unsigned long long>(n));
  if (piece) std::snprintf(buf + len, sizeof buf - static_cast<std::size_t>(len), "_p%06zu", *piece);
  return buf;
}

std::uint64_t SequenceSpill::file_size(const std::string& path) const {
  auto n = store_.mem_.ssd_cache().file_system().file_size(path);
  return n.ok() ? *n : 0;
}

void SequenceSpill::tell(const std::string& key, std::uint64_t bytes, nl::TierDirection d, Clock::time_point begin) const {
  if (store_.o_.observer != nullptr) store_.o_.observer->tier_move({"tape cache " + key, bytes, d, begin, Clock::now()});
}

void SequenceSpill::add_resident(std::uint64_t bytes) {
  resident_ += bytes;
  store_.resident_ += bytes;
  store_.cost_.peak_resident_bytes = std::max(store_.cost_.peak_resident_bytes, store_.resident_);
}

void SequenceSpill::drop(std::uint64_t sg, Segment& g) noexcept {
  for (std::size_t k = 0; k < g.pieces; ++k) (void)store_.mem_.remove_tensor(seg_id(sg, k));
  (void)store_.mem_.remove_tensor(seg_id(sg));
  if (!g.out) store_.resident_ -= g.bytes, resident_ -= g.bytes;
  std::vector<float>().swap(*g.data);  // freed, not pooled (as take_context does)
  g.out = true, g.pieces = 0;
}

std::size_t SequenceSpill::read_piece(const std::string& key, std::span<std::uint8_t> to) {
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

void SequenceSpill::write_piece(const std::string& blob, std::span<const std::uint8_t> piece) {
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

std::vector<std::string> SequenceSpill::candidates(bool with_records) const {
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

void SequenceSpill::make_room_with(tape::Tape* t, std::uint64_t room) {
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

void SequenceSpill::check_placement(std::uint64_t bytes, std::uint64_t room) const {
  hybrid::GlobalHardwareSnapshot hw;
  hw.ram.total_bytes = share_;
  hw.ram.free_bytes = resident_ + room >= share_ ? 0 : share_ - resident_ - room;
  hw.ssd.fs_free_bytes = store_.disk_free_;
  const hybrid::CapacityDecision where = hybrid::decide_with_capacity({bytes / sizeof(float), sizeof(float), {}}, hw);
  if (where.target != hybrid::PlacementTarget::ssd) {
    throw tape::SpillError("spill", "no room for the step's saved state above the memory budget (" + where.reason + ")", {});
  }
}

void SequenceSpill::spill(tape::Tape& t, const std::string& key, std::uint64_t room) {
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

void SequenceSpill::spill_segment(std::uint64_t sg, std::uint64_t room) {
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

}  // namespace nl_store
