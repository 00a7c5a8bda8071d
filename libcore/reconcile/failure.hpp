#pragma once
// What the reconciler says about a receipt: every failure names its rule, the field path it
// judged, and (for arithmetic rules) the stored and recomputed values, their delta and the
// tolerance that was applied. Optional members are absent from the rendered JSON when unset.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace reconcile {

struct Factor {
  std::string name;
  std::optional<std::string> from;  // Rule 8 provenance path, when the receipt names one
  double value = 0;
};

struct Failure {
  int rule = 0;  // 0 = structural (with "Rule 0.8"/"Rule 0.9" in the message for those sub-checks)
  std::optional<std::string> parameter_id;
  std::string field_path;  // dotted/bracketed path as the reference prints it: updates[4].gradient
  std::optional<double> stored;
  std::optional<double> recomputed;
  std::optional<double> delta;  // NaN when the arithmetic was non-finite (rendered as null)
  std::optional<double> tolerance;
  std::vector<Factor> factors;
  std::optional<std::string> product_order;
  std::optional<int> cascade_of_rule;  // set when an upstream rule already failed on the same parameter
  std::optional<std::string> message;
};

struct Result {
  bool ok = true;
  std::vector<Failure> failures;
  std::vector<int> rules_evaluated;  // 1..26 ascending
  std::vector<int> gated_off;        // the complement of rules_evaluated in 1..26
  // Rule 14 skipped with a declared basis (verification_state engine_recompute_skipped_with_basis).
  bool math_gate_skipped = false;
  std::vector<int> skipped_rules;
  std::vector<std::size_t> math_gate_skipped_records;  // multi-step only
  // Failures beyond kMaxFailures are counted, not stored, so adversarial input cannot grow memory.
  std::size_t failures_dropped = 0;
};

inline constexpr std::size_t kMaxFailures = 10000;

}  // namespace reconcile
