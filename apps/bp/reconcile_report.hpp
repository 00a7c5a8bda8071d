#pragma once
// How a reconcile Result reads to a person and to a program: the reference's failure blocks
// ("Rule N: <label> on <parameter>" then field_path, stored / recomputed, delta / tolerance in
// exponent form with 9 decimals, and the cascade note), and the JSON of failures as the reference's
// JSON.stringify writes them. Rendering shares no code with canonical receipt emission.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "reconcile/failure.hpp"

namespace bp::cli {

// The reference's one-line label of rule `rule` ("update.gradient mismatch" for 4).
[[nodiscard]] std::string_view rule_label(int rule);

// JavaScript's Number.prototype.toExponential(digits): "6.683908329e-4", "NaN", "-Infinity".
[[nodiscard]] std::string js_to_exponential(double v, int digits);

// JavaScript's String(number) ("NaN", "Infinity" for non-finite values).
[[nodiscard]] std::string js_number_text(double v);

// One failure block, ending in "\n" (no blank line after it).
[[nodiscard]] std::string render_failure(const reconcile::Failure& f);

// The failures as a JSON array (the evidence of a failed reconcile check, and `--json` output).
[[nodiscard]] nlohmann::ordered_json failures_json(const std::vector<reconcile::Failure>& failures);

// "rules evaluated: 9/26 (gated off, feature absent: 9-11,13-26)"; empty when there is no coverage.
[[nodiscard]] std::string coverage_line(const std::vector<int>& evaluated, const std::vector<int>& gated_off);

// "14" or "14, 22": rule numbers as the math-gate messages list them.
[[nodiscard]] std::string join_rules(const std::vector<int>& rules);

// Consecutive runs collapsed: [13,16,17,18] -> "13,16-18".
[[nodiscard]] std::string rule_ranges(std::vector<int> rules);

}  // namespace bp::cli
