#pragma once
// State helpers for the cross-record rules (9, 10, 17, 25, 26): a capped failure buffer, so a
// bundle of a million bad records keeps at most kMaxFailures findings per rule (the rest are
// counted), and JavaScript's === on JSON values as the reference compares them.
#include <cstddef>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"

namespace reconcile::rules {

class CappedFailures {
 public:
  void add(Failure f) {
    if (kept_.size() < kMaxFailures) {
      kept_.push_back(std::move(f));
    } else {
      ++dropped_;
    }
  }
  void clear() {
    kept_.clear();
    kept_.shrink_to_fit();
    dropped_ = 0;
  }
  // Moves everything into `out` (counted ones count there too).
  void flush(FailureSink& out);
  [[nodiscard]] std::size_t kept() const noexcept { return kept_.size(); }
  [[nodiscard]] std::size_t total() const noexcept { return kept_.size() + dropped_; }

 private:
  std::vector<Failure> kept_;
  std::size_t dropped_ = 0;
};

// a === b for two JSON values (nullptr = undefined). Objects and arrays are equal only when they
// are the same value (`same` says so: the reference compares a record's field with itself).
[[nodiscard]] bool js_strict_equal(const Json* a, const Json* b) noexcept;
// The same for values a cross-record rule keeps beyond their record (copied out as trees).
[[nodiscard]] bool js_strict_equal(const Tree* a, const Tree* b) noexcept;

// typeof v === "object" && v !== null: objects and arrays.
[[nodiscard]] inline bool js_object(const Json& v) noexcept { return v.is_object() || v.is_array(); }

// Bounded-state introspection for tests: every cross-record rule reports how many elements its
// retained containers hold (failure buffers included), so a test can assert the state does not
// grow with the number of records.
[[nodiscard]] std::size_t retained_elements(const Tree& v) noexcept;

}  // namespace reconcile::rules
