#pragma once
// StatePager: how a memory budget moves parts of one record's context (a rule's state trajectory
// M_0..M_s, (s+1) d^2 floats) out of RAM while the forward still makes it and the backward reads
// it, a segment of time steps at a time (nl/segmented_states.hpp). Why beside ContextSpill, which
// moves whole contexts: one trajectory can be larger than the budget, and the rule's forward and
// backward walk it in order, so only the segments around the current step need to be in RAM.
// The segments exist before their record does (the forward makes them), so they are named by the
// pager's own ids, not by record. The bits do not depend on it: a segment comes back byte for byte.
//
// A ContextSpill that pages offers itself through state_pager(); a step's forward installs it
// on its thread (StatePagerScope), where a trajectory made by the forward finds it.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tape {

class StatePager {
 public:
  virtual ~StatePager() = default;
  // States per segment for a trajectory of `count` states of `state_floats` floats each; 0: keep
  // it whole in one vector (no paging: the record then moves as a whole, through ContextSpill).
  [[nodiscard]] virtual std::size_t segment_steps(std::size_t count, std::size_t state_floats) = 0;
  // The forward is about to fill `data` (empty now) with `floats` floats: makes room (may move
  // other segments or contexts out), returns the segment's id. `data` stays at its address until
  // released, and is in RAM (pinned) until sealed.
  [[nodiscard]] virtual std::uint64_t opened(std::vector<float>& data, std::size_t floats) = 0;
  // The forward wrote segment `id` for good: it may go out from now on (emptied, its length kept).
  virtual void sealed(std::uint64_t id) = 0;
  // Backward reads segment `id`: its data is in RAM when this returns, and stays (pinned) until
  // released.
  virtual void needed(std::uint64_t id) = 0;
  // Nothing reads segment `id` again: its RAM and whatever it left on disk go.
  virtual void released(std::uint64_t id) noexcept = 0;
};

namespace detail {
inline constinit thread_local StatePager* pager = nullptr;
}  // namespace detail

// The pager a trajectory made on this thread now uses (null: none, the default).
[[nodiscard]] inline StatePager* current_state_pager() noexcept { return detail::pager; }

// Installs a pager on this thread for its lifetime (null: none), restoring the one before.
class StatePagerScope {
 public:
  explicit StatePagerScope(StatePager* p) noexcept : before_(detail::pager) { detail::pager = p; }
  ~StatePagerScope() { detail::pager = before_; }
  StatePagerScope(const StatePagerScope&) = delete;
  StatePagerScope& operator=(const StatePagerScope&) = delete;

 private:
  StatePager* before_;
};

}  // namespace tape
