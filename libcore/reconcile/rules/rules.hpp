#pragma once
// Every rule the reconciler runs, one function per rule or sub-check, each in
// rules/rule_NN_<name>.cpp. reconcile_receipt.cpp calls the per-record ones in the reference's
// order; multi_step.cpp drives the cross-record ones (9, 10, 17, 25, 26), which see records one
// at a time and keep only the state they need between records.
#include <cstddef>
#include <memory>
#include <vector>

#include "reconcile/rule_context.hpp"

namespace reconcile::rules {

// Rule 0: structure and cross-declaration consistency; each adds rule-0 failures.
void check_rule_00_structural(RuleContext& ctx);
void check_rule_00_optimizer_recognized(RuleContext& ctx);
void check_rule_00_observer_provenance(RuleContext& ctx);  // marker present but label denied
void check_rule_00_forward_completeness(RuleContext& ctx);  // Rule 0.9

// Rules 1-8: the core arithmetic, per record.
void check_rule_01_output_error_signal(RuleContext& ctx);
void check_rule_02_backpropagated_sum(RuleContext& ctx);
void check_rule_03_hidden_error_signal(RuleContext& ctx);
void check_rule_04_update_gradient(RuleContext& ctx);
void check_rule_05_update_value(RuleContext& ctx);
void check_rule_06_weight_progression(RuleContext& ctx);
void check_rule_07_final_state(RuleContext& ctx);
void check_rule_08_provenance(RuleContext& ctx);

// Softmax / loss / dual form.
void check_rule_11_softmax_normalization(RuleContext& ctx);
void check_rule_12_loss_formula(RuleContext& ctx);
void check_rule_13_dual_form(RuleContext& ctx);

// Observer mode and attestation.
struct Rule14Outcome {
  bool math_gate_skipped = false;  // skipped with a declared basis (Rule 15 judges the basis)
};
Rule14Outcome check_rule_14_engine_differential(RuleContext& ctx);
void check_rule_15_skip_basis(RuleContext& ctx);
void check_rule_16_attestation_digest(RuleContext& ctx);

// Batches.
void check_rule_18_batch_reduction(RuleContext& ctx);
void check_rule_19_sample_set(RuleContext& ctx);

// Optimizer state (the reference runs 21 before 20).
void check_rule_21_sgd_momentum(RuleContext& ctx);
void check_rule_20_optimizer_state_shape(RuleContext& ctx);
void check_rule_22_adam_moments(RuleContext& ctx);
void check_rule_23_adam_bias_correction(RuleContext& ctx);
void check_rule_24_adam_update(RuleContext& ctx);

// Cross-record rules. A rule reads a record in two steps: notes() takes what the rule needs from
// the record alone (pure: no state, any thread, ahead of the record's turn: bp verify multi --jobs
// runs it where the record was parsed, so the in-order fold never walks a tree another core
// built), and observe() folds those notes in record order (index 0-based). finish() appends the
// rule's failures, field paths prefixed "receipts[i]." as the reference prints them. State kept
// between records is O(one record).
struct RecordNotes {
  virtual ~RecordNotes() = default;
};

class CrossRecordRule {
 public:
  virtual ~CrossRecordRule() = default;
  [[nodiscard]] virtual std::unique_ptr<RecordNotes> notes(const ReadReceipt& receipt) const = 0;
  // `notes` is what this rule's notes() gave for record `index`; it may be taken apart.
  virtual void observe(std::size_t index, RecordNotes& notes) = 0;
  void observe(std::size_t index, const ReadReceipt& receipt) { observe(index, *notes(receipt)); }
  virtual void finish(FailureSink& out) = 0;
  // How many values the rule holds between records (copied JSON nodes, map entries, buffered
  // failures): tests assert it stays bounded whatever the number of records.
  [[nodiscard]] virtual std::size_t retained_state() const { return 0; }
};

std::unique_ptr<CrossRecordRule> make_rule_09_parameter_chain();
std::unique_ptr<CrossRecordRule> make_rule_10_trace_identity();
std::unique_ptr<CrossRecordRule> make_rule_17_bundle_binding();
std::unique_ptr<CrossRecordRule> make_rule_25_optimizer_state_chain();
std::unique_ptr<CrossRecordRule> make_rule_26_optimizer_config_constancy();

}  // namespace reconcile::rules
