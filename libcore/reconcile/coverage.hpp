#pragma once
// Which of rules 1-26 a receipt (or a bundle) exercises: the coverage line of `bp verify --verbose`
// and rules_evaluated / gated_off in --json. A rule is gated off when the feature it judges is absent.
#include <string>
#include <vector>

#include "reconcile/json_access.hpp"

namespace reconcile {

class RuleSet {
 public:
  void add(int rule) { bits_ |= 1u << rule; }
  void merge(const RuleSet& other) { bits_ |= other.bits_; }
  [[nodiscard]] bool has(int rule) const { return bits_ & (1u << rule); }
  [[nodiscard]] std::vector<int> evaluated() const;  // ascending, within 1..26
  [[nodiscard]] std::vector<int> gated_off() const;

 private:
  unsigned bits_ = 0;
};

// Per-record coverage; `receipt` must be an object whose updates is an array.
[[nodiscard]] RuleSet record_coverage(const Json& receipt);

// What bundle coverage reads of one record, taken from the record alone (any thread).
struct CoverageNotes {
  bool counted = false;  // an object whose updates is an array: nothing below is set otherwise
  RuleSet rules;         // record_coverage
  bool bundle_root = false, stateful_optimizer = false, optimizer_config = false;
};
[[nodiscard]] CoverageNotes coverage_notes(const Json& receipt);

// Bundle coverage is the union over records, plus the cross-record rules once two or more
// records are seen; the caller feeds records (or their notes, in order) and then asks.
class BundleCoverage {
 public:
  void observe(const Json& receipt) { observe(coverage_notes(receipt)); }
  void observe(const CoverageNotes& notes);
  [[nodiscard]] RuleSet result() const;

 private:
  RuleSet rules_;
  std::size_t valid_records_ = 0;
  bool any_bundle_root_ = false;
  bool any_stateful_optimizer_ = false;
  bool any_optimizer_config_ = false;
};

// "14" or "14, 22": rule numbers as the math-gate messages of `bp reconcile` and `bp verify` list them.
[[nodiscard]] std::string join_rules(const std::vector<int>& rules);

}  // namespace reconcile
