#pragma once
// SegmentedStates: a rule's state trajectory M_0 .. M_{count-1} (count = s+1 states of n values:
// d^2 for a matrix memory), the largest part of its cache. Without a pager (the default, and any
// T but float) it is one vector, as it always was. With this thread's StatePager
// (tape/state_pager.hpp, installed by a budgeted step) it is cut into segments of S states, each
// its own vector: the forward opens them in order and seals each once it reads past it (then it
// may go out of RAM), and the backward, walking time in reverse, asks for segment floor(t/S) and
// releases the ones above the two it reads, so that neither holds more than two segments. The
// arithmetic reads the same values through state(t) in both layouts: the same bits.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tape/float_pool.hpp"
#include "tape/state_pager.hpp"
#include "tape/tape_error.hpp"

namespace nl {

template <typename T>
class SegmentedStates {
 public:
  SegmentedStates() = default;
  // A paged trajectory is owned by its pager's bookkeeping: it moves, never copies.
  SegmentedStates(const SegmentedStates& o) : whole_(o.whole_), first_(o.first_), count_(o.count_), n_(o.n_) {
    if (o.pager_ != nullptr) throw tape::TapeError("SegmentedStates", "a paged state trajectory cannot be copied", {});
  }
  SegmentedStates& operator=(const SegmentedStates& o) {
    if (this != &o) *this = SegmentedStates(o);
    return *this;
  }
  SegmentedStates(SegmentedStates&& o) noexcept { swap(o); }
  SegmentedStates& operator=(SegmentedStates&& o) noexcept {
    if (this != &o) {
      SegmentedStates gone(std::move(*this));  // releases what this held
      swap(o);
    }
    return *this;
  }
  ~SegmentedStates() { release_all(); }

  // Starts a trajectory of `count` states of first.size() values each; state 0 = first.
  void start(std::size_t count, std::span<const T> first) {
    *this = SegmentedStates();
    count_ = count, n_ = first.size();
    if constexpr (std::is_same_v<T, float>) {
      tape::StatePager* p = tape::current_state_pager();
      const std::size_t steps = p != nullptr && count > 1 ? p->segment_steps(count, n_) : 0;
      if (steps > 0 && steps < count) {
        pager_ = p, steps_ = steps;
        const std::size_t n_segs = (count + steps - 1) / steps;
        segs_.resize(n_segs), ids_.resize(n_segs), phase_.assign(n_segs, Phase::unopened);
        first_.assign(first.begin(), first.end());  // state 0 for all the walk (first()), beside segment 0
        open(0);
        std::copy(first.begin(), first.end(), segs_[0].begin());
        return;
      }
    }
    whole_ = tape::take_cache_buffer<T>(count * n_);  // every element is written by the forward
    std::copy(first.begin(), first.end(), whole_.begin());
  }

  // The forward's storage for state t (1 <= t < count, in increasing t): it reads state t-1 and
  // writes this one. Segments wholly below state t-1 are sealed here.
  [[nodiscard]] T* fill(std::size_t t) {
    if (pager_ == nullptr) return whole_.data() + t * n_;
    const std::size_t k = t / steps_;
    for (const std::size_t reading = (t - 1) / steps_; sealed_ < reading; ++sealed_) seal(sealed_);
    if (phase_[k] == Phase::unopened) open(k);
    return segs_[k].data() + (t % steps_) * n_;
  }

  // The forward is done: every segment may go out until the backward asks for it.
  void finish() {
    if (pager_ == nullptr) return;
    for (; sealed_ < segs_.size(); ++sealed_) seal(sealed_);
  }

  // State t, n values. During the forward: one it made (still in RAM). After finish: brought back
  // when out, and segments above the two the backward reads at step t (t and t+1) are released.
  [[nodiscard]] const T* state(std::size_t t) const {
    if (pager_ == nullptr) return whole_.data() + t * n_;
    const std::size_t k = t / steps_;
    if (sealed_ == segs_.size()) hold(k);
    return segs_[k].data() + (t % steps_) * n_;
  }

  // The backward's first call: `count` states of `n` values. A trajectory rebuilt from its fields
  // (the seed-signature VJP's unpack_fields: a vector, no shape) learns its shape here.
  void shape(std::size_t count, std::size_t n) const {
    if (pager_ != nullptr) return;
    if (whole_.size() != count * n) {
      throw tape::TapeError("SegmentedStates", "a trajectory of " + std::to_string(whole_.size()) + " values is not " +
                                                   std::to_string(count) + " states of " + std::to_string(n), {});
    }
    count_ = count, n_ = n;
  }

  // State 0 at any step (a rule whose every step reads the initial state, e.g. a decay toward
  // it): paged, a copy of it kept whole, so that reading it never holds segment 0.
  [[nodiscard]] const T* first() const { return pager_ == nullptr ? whole_.data() : first_.data(); }

  [[nodiscard]] std::size_t count() const { return count_; }
  // The fields a cache's visit reaches: the whole trajectory, or (paged) an empty vector, the
  // segments being the pager's to move; then (paged) the copy of state 0, else empty.
  template <typename F>
  void visit(F&& f) {
    f(whole_), f(first_);
  }

 private:
  enum class Phase : std::uint8_t { unopened, forward, held, released };

  void swap(SegmentedStates& o) noexcept {
    std::swap(whole_, o.whole_), std::swap(first_, o.first_), std::swap(count_, o.count_), std::swap(n_, o.n_), std::swap(pager_, o.pager_);
    std::swap(steps_, o.steps_), std::swap(sealed_, o.sealed_), std::swap(segs_, o.segs_), std::swap(ids_, o.ids_);
    std::swap(phase_, o.phase_);
  }

  void open(std::size_t k) {
    const std::size_t floats = std::min(steps_, count_ - k * steps_) * n_;
    if constexpr (std::is_same_v<T, float>) ids_[k] = pager_->opened(segs_[k], floats);  // only floats page
    phase_[k] = Phase::forward;
    segs_[k] = tape::take_cache_buffer<T>(floats);
  }

  void seal(std::size_t k) {
    if (phase_[k] == Phase::forward) pager_->sealed(ids_[k]);
  }

  void hold(std::size_t k) const {
    if (phase_[k] == Phase::held) return;
    if (phase_[k] != Phase::forward) {
      throw tape::TapeError("SegmentedStates", "state segment " + std::to_string(k) + " was read again after its release", {});
    }
    // First what the backward is done with, then the one it needs: never three in RAM.
    for (std::size_t j = k + 2; j < segs_.size(); ++j) {
      if (phase_[j] == Phase::held) pager_->released(ids_[j]), phase_[j] = Phase::released;
    }
    pager_->needed(ids_[k]);
    phase_[k] = Phase::held;
  }

  void release_all() noexcept {
    for (std::size_t k = 0; k < phase_.size(); ++k) {
      if (phase_[k] == Phase::forward || phase_[k] == Phase::held) pager_->released(ids_[k]);
      phase_[k] = Phase::released;
    }
  }

  std::vector<T> whole_, first_;
  mutable std::size_t count_ = 0, n_ = 0;  // mutable: shape() on a rebuilt one
  tape::StatePager* pager_ = nullptr;
  std::size_t steps_ = 0, sealed_ = 0;
  std::vector<std::vector<T>> segs_;
  std::vector<std::uint64_t> ids_;
  mutable std::vector<Phase> phase_;
};

}  // namespace nl
