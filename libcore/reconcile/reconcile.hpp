#pragma once
// The reconciler: does the math a receipt claims add up? Pure: no I/O, never throws, whatever the
// input (malformed, adversarial, huge); a receipt that breaks a rule's assumptions is a Rule 0
// failure, never an exception. Acceptance never reads fixture_status.verification_state's claim of
// success, authoring_state's lifecycle or any other label as evidence (labels only select which
// rules apply, and a label that would let a receipt dodge a rule is itself a failure).
//
//   auto result = reconcile::reconcile_receipt(receipt);   // rules 0-8, 11-16, 18-24
//
//   reconcile::MultiStepReconciler multi;                 // + rules 9, 10, 17, 25, 26
//   for (const auto& r : records) per_record.push_back(multi.add(r));
//   auto cross = multi.finish();
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/json_access.hpp"

namespace reconcile {

// What a caller may ask beyond the reference's rules (deliberate differences, off by default so
// `bp reconcile` keeps the reference's verdicts).
struct Options {
  // Rule 14 re-runs the engine on every record, not only on imported ones, within the record's
  // own numeric_policy.tolerance (clamped to the engine-authored ceiling) for engine records: a
  // label cannot switch the arithmetic off. Every record's parameters_before must then name
  // exactly topology.parameter_order. `bp verify multi` sets it.
  bool derive_every_record = false;
  // Rules 2, 6, 7 and 13 judge a sum (backpropagated_sum, weight_before + update, the dual form's
  // summed_value) within rtol of the larger of it and the sum of its terms' magnitudes, not of the
  // sum alone: every term is printed with 9 significant digits, and where terms cancel their
  // rounding exceeds rtol of the sum (bp generate from-config's own receipts of 8-8-8 networks
  // failed the reference's bound about half the time). `bp verify` sets it.
  bool term_scaled_sums = false;
  // Rule 14 on an observer-mode (imported) receipt also compares its labels with the engine's for
  // its own topology (rule_14_engine_labels.hpp): the reference compares only the numbers.
  // `bp verify` sets it.
  bool engine_labels = false;
};

[[nodiscard]] Result reconcile_receipt(const ReadReceipt& receipt, const Options& options = {}) noexcept;
// The same of a tree (read as ReadReceipt(receipt)).
[[nodiscard]] Result reconcile_receipt(const Tree& receipt, const Options& options = {}) noexcept;

// What the cross-record rules and the bundle coverage read of one record, taken from it alone
// (record_facts): pure, so it may run on any thread ahead of the record's turn, and the record's
// tree may be released before its facts are folded (MultiStepReconciler::add). An exception met
// while taking them is kept and surfaces when they are folded, as it would have there.
class RecordFacts {
 public:
  RecordFacts();
  ~RecordFacts();
  RecordFacts(RecordFacts&&) noexcept;
  RecordFacts& operator=(RecordFacts&&) noexcept;

 private:
  friend RecordFacts record_facts(const ReadReceipt& receipt) noexcept;
  friend class MultiStepReconciler;
  struct Data;
  std::unique_ptr<Data> data_;
};
[[nodiscard]] RecordFacts record_facts(const ReadReceipt& receipt) noexcept;
[[nodiscard]] RecordFacts record_facts(const Tree& receipt) noexcept;

// Records are given one at a time and may be released by the caller after add(): only the state
// the cross-record rules need (the previous record's parameters and optimizer state, the first
// record's trace id and optimizer config, a running bundle hash) is kept.
class MultiStepReconciler {
 public:
  explicit MultiStepReconciler(const Options& options = {});
  ~MultiStepReconciler();
  MultiStepReconciler(const MultiStepReconciler&) = delete;
  MultiStepReconciler& operator=(const MultiStepReconciler&) = delete;

  // The record's own reconcile result; failure field paths are prefixed "receipts[i].".
  [[nodiscard]] Result add(const Tree& receipt) noexcept;
  // The same, with the record's own result already computed: `own` must be
  // reconcile_receipt(receipt, options) with this reconciler's options. The record's own rules
  // need nothing from the records before it, so a caller may run them on other threads, out of
  // order, and feed the records here in order (bp verify multi --jobs); only the cross-record
  // state is folded here.
  [[nodiscard]] Result add(const ReadReceipt& receipt, Result own) noexcept;
  // The same from the record's facts (record_facts(receipt)): the fold never reads the record.
  // The facts are taken apart (what the rules keep is moved out) and left to the caller, who
  // frees the rest: bp verify multi --jobs frees them on the thread that made them.
  [[nodiscard]] Result add(RecordFacts& facts, Result own) noexcept;
  // Cross-record failures (rules 9, 10, 17, 25, 26, in that order) and the coverage of the whole
  // bundle; math_gate_skipped* summarise the records seen.
  [[nodiscard]] Result finish() noexcept;
  [[nodiscard]] std::size_t records_seen() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The reference's reconcileMultiStep in one call: every record's failures, then the cross-record ones.
[[nodiscard]] Result reconcile_multi_step(std::span<const Tree> receipts) noexcept;

}  // namespace reconcile
