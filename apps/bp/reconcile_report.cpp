#include "reconcile_report.hpp"

#include <algorithm>
#include <array>

#include "common/js_text.hpp"

namespace bp::cli {
namespace {

// The reference's labels, indexed by rule number (0 = structural).
constexpr std::array<std::string_view, 27> kRuleLabels = {
      "structural failure",
      "output_error_signal mismatch",
      "backpropagated_sum or contribution mismatch",
      "hidden_error_signal mismatch",
      "update.gradient mismatch",
      "update.update inconsistent with update.gradient",
      "weight_after inconsistent with weight_before + update",
      "parameters_after inconsistent with parameters_before + update",
      "factor value disagrees with provenance",
      "multi-step parameter chain violation (parameters_before != prior parameters_after)",
      "multi-step trace identity violation (trace_id or step_index)",
      "softmax normalization violation (sum(forward[output].out) != 1.0)",
      "loss formula consistency violation (loss.per_output[u] or loss.total disagrees with topology.loss formula)",
      "dual-form consistency violation (jacobian_terms multiplication / summation / collapsed-vs-dual)",
      "engine-recompute differential (observer-mode receipt's foreign claim disagrees with backprop-trace engine recomputation)",
      "skip-basis required (engine_recompute_skipped_with_basis verification_state needs attestor.skip_basis from closed enum)",
      "attestation digest binding (attestor.signed_subject_digest does not match recomputed canonical-byte digest)",
      "trace-bundle binding (attestor.bundle_root_digest mismatch / heterogeneous bundle binding / post-binding mutation; INTEGRITY check only, not producer-authenticity)",
      "batch reduction consistency (loss.total != reduction(loss.per_sample.values()) per batch.reduction; catches mean-vs-sum confusion)",
      "sample-set coherence (per-sample maps' key set != batch.sample_order set; missing/duplicate/extra sample IDs in any ordered projection used for reduction/emission/canonical digest)",
      "optimizer-state shape consistency (Adam/AdamW: state_before/state_after {m, v} + optimizer_config.{name, beta1, beta2, epsilon, t, weight_decay}; sgd_momentum: state_before/state_after {buffer} + optimizer_config.{name, momentum}; STRUCTURAL consistency check NOT producer-authenticity — Fang et al. 2023 EuroS&P spoofing class applies)",
      "PyTorch-style SGD momentum recurrence + effective direction + parameter update (Sutskever et al. 2013 ICML / PyTorch torch.optim.SGD; 21a: buffer_after == momentum * buffer_before + (1 - dampening) * gradient; 21b: effective == (gradient + momentum * buffer_after) if nesterov else buffer_after; 21c: update == learning_rate * effective; descent direction; v0.9.3 widens v0.9.2's classical-only to full PyTorch torch.optim.SGD surface — Nesterov + dampening accepted; nesterov=true + dampening>0 rejected mirroring PyTorch ValueError; SGD coupled L2 weight decay deferred to v0.10; STRUCTURAL CHECK NOT producer-authenticity)",
      "Adam moment recurrences (Kingma & Ba 2014 arXiv:1412.6980 Algorithm 1 lines 9-10: m_after == beta1*m_before + (1-beta1)*gradient; v_after == beta2*v_before + (1-beta2)*gradient²; STRUCTURAL CHECK — does not verify gradient came from real data)",
      "Adam bias correction + t consistency (optimizer_config.t == step_index + 1 when both present; bias-correction divisors (1 - beta^t) non-degenerate; setup for Rule 24's m_hat/v_hat derivation chain)",
      "Adam/AdamW parameter update (Kingma & Ba 2014 Algorithm 1 line 13: update == lr * m_hat / (sqrt(v_hat) + epsilon); pinned epsilon OUTSIDE sqrt, PyTorch convention; AdamW's decoupled weight decay applies at Rule 7's AdamW branch; STRUCTURAL CHECK)",
      "optimizer-state chain (multi-step: Adam/AdamW state_before[step+1].{m,v} == state_after[step].{m,v} + optimizer_config.t monotonic +1; sgd_momentum state_before[step+1].buffer == state_after[step].buffer; analog of Rule 9 for parameter chain)",
      "optimizer-config constancy (multi-step: per-optimizer key list — Adam/AdamW: {beta1, beta2, epsilon, weight_decay}; sgd_momentum: {momentum, nesterov, dampening} — IDENTICAL across all receipts in a bundle; name ALWAYS checked; learning_rate EXCLUDED for LR schedules; t EXCLUDED — Rule 25 handles it for Adam)",
};

std::string optional_number(const std::optional<double>& v, bool exponent_form) {
  if (!v) return "undefined";  // the reference prints String(undefined)
  return exponent_form ? common::js_to_exponential(*v, 9) : common::js_number_text(*v);
}

}  // namespace

std::string_view rule_label(int rule) {
  if (rule < 0 || static_cast<std::size_t>(rule) >= kRuleLabels.size()) return "rule mismatch";
  return kRuleLabels[static_cast<std::size_t>(rule)];
}

std::string render_failure(const reconcile::Failure& f) {
  const std::string noun = f.rule == 4 ? "gradient" : "value";
  auto pad = [](std::string s) {
    if (s.size() < 21) s.append(21 - s.size(), ' ');
    return s;
  };
  std::string out = "Rule " + std::to_string(f.rule) + ": " + std::string(rule_label(f.rule)) + " on " +
                    f.parameter_id.value_or("(unknown parameter)") + "\n";
  out += "  field_path:          " + f.field_path + "\n";
  out += "  " + pad("stored " + noun + ":") + optional_number(f.stored, false) + "\n";
  out += "  " + pad("recomputed " + noun + ":") + optional_number(f.recomputed, false) + "\n";
  out += "  delta:               " + optional_number(f.delta, true) + "\n";
  out += "  tolerance:           " + optional_number(f.tolerance, true) + "\n";
  if (f.cascade_of_rule) {
    const std::string n = std::to_string(*f.cascade_of_rule);
    out += "  Note: cascades from Rule " + n + ". Fix Rule " + n + " first.\n";
  }
  return out;
}

std::string rule_ranges(std::vector<int> rules) {
  std::sort(rules.begin(), rules.end());
  std::string out;
  for (std::size_t i = 0; i < rules.size();) {
    std::size_t j = i;
    while (j + 1 < rules.size() && rules[j + 1] == rules[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(rules[i]);
    if (j > i) out += "-" + std::to_string(rules[j]);
    i = j + 1;
  }
  return out;
}

std::string coverage_line(const std::vector<int>& evaluated, const std::vector<int>& gated_off) {
  if (evaluated.empty() && gated_off.empty()) return {};
  const std::string head = "rules evaluated: " + std::to_string(evaluated.size()) + "/" +
                           std::to_string(evaluated.size() + gated_off.size());
  if (gated_off.empty()) return head + " (all applicable rules ran)";
  return head + " (gated off, feature absent: " + rule_ranges(gated_off) + ")";
}

}  // namespace bp::cli
