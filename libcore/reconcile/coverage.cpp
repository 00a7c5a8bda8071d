#include "reconcile/coverage.hpp"

#include "reconcile/receipt_traits.hpp"
#include "reconcile/rules/core_js.hpp"

namespace reconcile {

std::string join_rules(const std::vector<int>& rules) {
  std::string out;
  for (int r : rules) out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out;
}

std::vector<int> RuleSet::evaluated() const {
  std::vector<int> out;
  for (int n = 1; n <= 26; ++n) {
    if (has(n)) out.push_back(n);
  }
  return out;
}

std::vector<int> RuleSet::gated_off() const {
  std::vector<int> out;
  for (int n = 1; n <= 26; ++n) {
    if (!has(n)) out.push_back(n);
  }
  return out;
}

RuleSet record_coverage(const Json& r) {
  RuleSet s;
  // The reference gates on `typeof backward === "object"`, which arrays pass too.
  const Json* backward = member(r, "backward");
  if (rules::core::is_object(backward)) {
    s.add(1);
    s.add(2);
    s.add(3);
  }
  for (int n = 4; n <= 8; ++n) s.add(n);
  const Json* topology = member(r, "topology");
  const auto activation = topology ? string_member(*topology, "activation_output") : std::nullopt;
  if (activation && *activation == "softmax") s.add(11);
  const Json* loss = member(r, "loss");
  const Json* batch = member(r, "batch");
  const bool has_loss = loss && !loss->is_null();
  const bool has_batch = batch && !batch->is_null();
  if (has_loss && !has_batch) s.add(12);
  // Rule 13's own gate, in JavaScript terms: Object.keys of the signals (an array's indices
  // too), then the first unit that is an object with a truthy dual_form.
  const Json* signals = backward && backward->is_object() ? member(*backward, "output_error_signals") : nullptr;
  if (rules::core::truthy(signals) && rules::core::is_object(signals)) {
    const rules::core::KeyList units(signals);
    for (std::size_t i = 0; i < units.size(); ++i) {
      const Json* signal = units.value(i);
      if (rules::core::is_object(signal) && rules::core::truthy(member(*signal, "dual_form"))) {
        s.add(13);
        break;
      }
    }
  }
  if (labelled_external_imported(r) || has_observer_markers(r)) s.add(14);
  const Json* status = member(r, "fixture_status");
  const auto verification = status ? string_member(*status, "verification_state") : std::nullopt;
  if (verification && *verification == "engine_recompute_skipped_with_basis") s.add(15);
  const Json* attestor = member(r, "attestor");
  const auto digest = attestor ? string_member(*attestor, "signed_subject_digest") : std::nullopt;
  if (digest && !digest->empty()) s.add(16);
  if (has_batch) {
    const auto reduction = string_member(*batch, "reduction");
    if (reduction && (*reduction == "mean" || *reduction == "sum")) s.add(18);
    if (array_member(*batch, "sample_order")) s.add(19);
  }
  bool any_adam = false;
  bool any_momentum = false;
  if (const Json* updates = array_member(r, "updates")) {
    for (const auto& u : *updates) {
      if (is_adam_family_update(u)) {
        any_adam = true;
      } else if (is_sgd_momentum_update(u)) {
        any_momentum = true;
      }
    }
  }
  if (any_adam || any_momentum) s.add(20);
  if (any_momentum) s.add(21);
  if (any_adam) {
    s.add(22);
    s.add(23);
    s.add(24);
  }
  return s;
}

CoverageNotes coverage_notes(const Json& r) {
  CoverageNotes n;
  if (!r.is_object() || !array_member(r, "updates")) return n;
  n.counted = true;
  n.rules = record_coverage(r);
  const Json* attestor = member(r, "attestor");
  n.bundle_root = attestor && string_member(*attestor, "bundle_root_digest");
  n.stateful_optimizer = n.rules.has(20);  // record_coverage's: an Adam-family or momentum update
  n.optimizer_config = has_optimizer_config(r);
  return n;
}

void BundleCoverage::observe(const CoverageNotes& n) {
  if (!n.counted) return;
  ++valid_records_;
  rules_.merge(n.rules);
  any_bundle_root_ = any_bundle_root_ || n.bundle_root;
  any_stateful_optimizer_ = any_stateful_optimizer_ || n.stateful_optimizer;
  any_optimizer_config_ = any_optimizer_config_ || n.optimizer_config;
}

RuleSet BundleCoverage::result() const {
  RuleSet s = rules_;
  if (valid_records_ >= 2) {
    s.add(9);
    s.add(10);
    if (any_bundle_root_) s.add(17);
    if (any_stateful_optimizer_) s.add(25);
    if (any_optimizer_config_) s.add(26);
  }
  return s;
}

}  // namespace reconcile
