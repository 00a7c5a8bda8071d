#pragma once
// Private to nl_store: the tape::ContextSpill (and tape::StatePager) SpillStore hands each
// sequence of a batch. How it decides what moves where: spill_store.hpp.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hybrid/offload/smart_offload_engine.hpp"
#include "nl/step_phases.hpp"
#include "nl_store/spill_internal.hpp"
#include "nl_store/spill_store.hpp"
#include "tape/context_spill.hpp"
#include "tape/state_pager.hpp"
#include "tape/tape.hpp"

namespace nl_store {

// One sequence's tape: its caches, the segments of their state trajectories (tape/state_pager.hpp),
// which of them are out, and the budget share they live in.
class SequenceSpill final : public tape::ContextSpill, public tape::StatePager {
 public:
  SequenceSpill(SpillStore& store, std::uint64_t hook);
  ~SequenceSpill() override;
  SequenceSpill(const SequenceSpill&) = delete;
  SequenceSpill& operator=(const SequenceSpill&) = delete;

  void recorded(tape::Tape& t, tape::ContextRef r) override;

  void needed(tape::Tape& t, tape::ContextRef r) override;

  void released(tape::Tape&, tape::ContextRef r) override;

  [[nodiscard]] tape::StatePager* state_pager() override { return paging_ ? this : nullptr; }

  // ── StatePager: the trajectories' segments ──────────────────────────────────────
  std::size_t segment_steps(std::size_t count, std::size_t state_floats) override;

  std::uint64_t opened(std::vector<float>& data, std::size_t floats) override;

  void sealed(std::uint64_t sg) override;

  void needed(std::uint64_t sg) override;

  void released(std::uint64_t sg) noexcept override;

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
  [[nodiscard]] std::string key(const char* kind, int width, std::uint64_t n, std::optional<std::size_t> piece) const;
  [[nodiscard]] std::string id(std::size_t op, std::optional<std::size_t> piece = std::nullopt) const { return key("op", 8, op, piece); }
  [[nodiscard]] std::string seg_id(std::uint64_t sg, std::optional<std::size_t> piece = std::nullopt) const {
    return key("sg", 12, sg, piece);
  }

  [[nodiscard]] std::uint64_t file_size(const std::string& path) const;

  void tell(const std::string& key, std::uint64_t bytes, nl::TierDirection d, Clock::time_point begin) const;

  void add_resident(std::uint64_t bytes);

  // A segment gone for good: its RAM, its blobs, its place in the count.
  void drop(std::uint64_t sg, Segment& g) noexcept;

  // Piece `key` read back (verified), copied to the start of `to`, deleted; returns its bytes.
  std::size_t read_piece(const std::string& key, std::span<std::uint8_t> to);

  // Piece `blob` written (atomically, through the codec) to the store's directory.
  void write_piece(const std::string& blob, std::span<const std::uint8_t> piece);

  // The candidates to move out: resident caches but the one backward reads, and sealed resident
  // segments that nobody is reading.
  [[nodiscard]] std::vector<std::string> candidates(bool with_records) const;

  // Moves caches and segments out until `room` more bytes fit in this sequence's share (what is
  // being read or written stays).
  void make_room(tape::Tape& t, std::uint64_t room) { make_room_with(&t, room); }
  // Before the tape's first record: only segments can go (there is no record yet).
  void make_room_segments(std::uint64_t room) { make_room_with(nullptr, room); }

  void make_room_with(tape::Tape* t, std::uint64_t room);

  // Where a victim goes: the placement policy, with RAM as this share of the budget; SSD or a refusal.
  void check_placement(std::uint64_t bytes, std::uint64_t room) const;

  void spill(tape::Tape& t, const std::string& key, std::uint64_t room);

  void spill_segment(std::uint64_t sg, std::uint64_t room);

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

}  // namespace nl_store
