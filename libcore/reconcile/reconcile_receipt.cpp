#include <exception>
#include <new>

#include "reconcile/contained.hpp"
#include "reconcile/coverage.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile {
namespace {

constexpr const char* kRunSchemaFirst =
    "Run schema validation against schemas/receipt.v0.1.0.json or v0.2.0.json before reconciling.";

Result structural(std::string field_path, std::string message) {
  Failure f;
  f.rule = 0;
  f.field_path = std::move(field_path);
  f.stored = 0;
  f.recomputed = 0;
  f.delta = 0;
  f.tolerance = 0;
  f.message = std::move(message);
  Result r;
  r.ok = false;
  r.failures.push_back(std::move(f));
  return r;
}

const char* json_kind(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number()) return "number";
  return "object";
}

// False when Rule 0 stopped the run before the arithmetic rules (no coverage is reported then).
bool run_rules(RuleContext& ctx, Result& result) {
  using namespace rules;
  check_rule_00_structural(ctx);
  check_rule_00_optimizer_recognized(ctx);
  check_rule_00_observer_provenance(ctx);
  check_rule_00_forward_completeness(ctx);
  if (!ctx.failures.empty()) return false;

  check_rule_01_output_error_signal(ctx);
  check_rule_02_backpropagated_sum(ctx);
  check_rule_03_hidden_error_signal(ctx);
  check_rule_04_update_gradient(ctx);
  check_rule_05_update_value(ctx);
  check_rule_06_weight_progression(ctx);
  check_rule_07_final_state(ctx);
  check_rule_08_provenance(ctx);
  check_rule_11_softmax_normalization(ctx);
  check_rule_12_loss_formula(ctx);
  check_rule_13_dual_form(ctx);
  const auto rule14 = check_rule_14_engine_differential(ctx);
  check_rule_15_skip_basis(ctx);
  check_rule_16_attestation_digest(ctx);
  check_rule_18_batch_reduction(ctx);
  check_rule_19_sample_set(ctx);
  check_rule_21_sgd_momentum(ctx);
  check_rule_20_optimizer_state_shape(ctx);
  check_rule_22_adam_moments(ctx);
  check_rule_23_adam_bias_correction(ctx);
  check_rule_24_adam_update(ctx);
  if (rule14.math_gate_skipped) {
    result.math_gate_skipped = true;
    result.skipped_rules = {14};
  }
  return true;
}

Result reconcile_checked(const ReadReceipt& read, const Options& options) {
  const Json& receipt = read.root();
  if (!receipt.is_object() && !receipt.is_array()) {
    return structural("root", std::string("Receipt is not a JSON object (got ") + json_kind(receipt) + "). " +
                                  kRunSchemaFirst);
  }
  const Json* policy = member(receipt, "numeric_policy");
  const Json* declared = policy ? member(*policy, "tolerance") : nullptr;
  const auto tolerance = declared ? read_tolerance_policy(*declared) : std::nullopt;
  if (!tolerance) {
    return structural("numeric_policy.tolerance",
                      std::string("Receipt is missing required field 'numeric_policy.tolerance' or it is malformed. "
                                  "Expected a finite number (v0.1/v0.2 scalar form) or an object { atol: <finite>, "
                                  "rtol: <finite> } (v0.3+ object form). ") +
                          kRunSchemaFirst);
  }
  if (!array_member(receipt, "updates")) {
    return structural("updates", std::string("Receipt is missing required field 'updates' (expected an array of "
                                             "update records). ") +
                                     kRunSchemaFirst);
  }
  const Tolerance ceiling = numeric_ceiling_for(receipt);
  const auto clamped = clamp_tolerance(*tolerance, ceiling);
  if (clamped.exceeded) {
    const bool observer = ceiling.atol == kObserverNumericCeiling.atol;
    return structural("numeric_policy.tolerance",
                      "numeric_policy.tolerance exceeds verifier maximum. Declared atol=" + js_number(tolerance->atol) +
                          ", rtol=" + js_number(tolerance->rtol) + "; verifier ceiling is atol<=" +
                          js_number(ceiling.atol) + ", rtol<=" + js_number(ceiling.rtol) + " (" +
                          (observer ? "observer/external_imported" : "engine-authored") +
                          " authoring state). The receipt under judgement may NOT widen the check that judges it "
                          "(Csmith/CompCert anti-circularity). Re-emit with a tolerance at or below the ceiling.");
  }

  Result result;
  FailureSink sink(result);
  CascadeTracker cascades;
  RuleContext ctx{receipt, read, clamped.effective, sink, cascades, options.derive_every_record, options.term_scaled_sums,
                 options.engine_labels};
  bool complete = false;
  try {
    complete = run_rules(ctx, result);
  } catch (const std::bad_alloc&) {
    throw;  // reported by the caller: not a verdict on the receipt
  } catch (const std::exception& e) {
    sink.add(structural("updates", std::string("Receipt is structurally malformed: a reconciliation rule threw "
                                               "while inspecting it (") +
                                       e.what() + "). " + kRunSchemaFirst)
                 .failures.front());
    result.ok = false;
    return result;
  }
  result.ok = sink.empty();
  if (complete) {
    const RuleSet coverage = record_coverage(receipt);
    result.rules_evaluated = coverage.evaluated();
    result.gated_off = coverage.gated_off();
  }
  return result;
}

}  // namespace

Result reconcile_receipt(const ReadReceipt& receipt, const Options& options) noexcept {
  return contained("root", "Receipt", [&] { return reconcile_checked(receipt, options); });
}

Result reconcile_receipt(const Tree& receipt, const Options& options) noexcept {
  return contained("root", "Receipt", [&] { return reconcile_checked(ReadReceipt(receipt), options); });
}

}  // namespace reconcile
