#pragma once
// How a reconcile Result reads to a person and to a program: the reference's failure blocks
// ("Rule N: <label> on <parameter>" then field_path, stored / recomputed, delta / tolerance in
// exponent form with 9 decimals, and the cascade note) and the coverage line. The JSON of failures
// is reconcile::to_json (reconcile/result_json.hpp). Rendering shares no code with canonical receipt
// emission.
#include <string>
#include <string_view>
#include <vector>

#include "reconcile/failure.hpp"

namespace bp::cli {

// The reference's one-line label of rule `rule` ("update.gradient mismatch" for 4).
[[nodiscard]] std::string_view rule_label(int rule);

// One failure block, ending in "\n" (no blank line after it).
[[nodiscard]] std::string render_failure(const reconcile::Failure& f);

// "rules evaluated: 9/26 (gated off, feature absent: 9-11,13-26)"; empty when there is no coverage.
[[nodiscard]] std::string coverage_line(const std::vector<int>& evaluated, const std::vector<int>& gated_off);

// Consecutive runs collapsed: [13,16,17,18] -> "13,16-18".
[[nodiscard]] std::string rule_ranges(std::vector<int> rules);

}  // namespace bp::cli
