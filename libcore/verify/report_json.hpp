#pragma once
// A verify report as the JSON the reference's `bp verify --json` writes inside its envelope:
// {"overall":..,"checks":[..],"math_gate_skipped"?,"skipped_rules"?,"rules_evaluated"?,"gated_off"?},
// each check {"name","status","strictExempt"?,"message"?,"evidence"?}.
#include <nlohmann/json.hpp>

#include "verify/report.hpp"

namespace verify {

[[nodiscard]] nlohmann::ordered_json check_json(const Check& c);
[[nodiscard]] nlohmann::ordered_json report_json(const VerifyReport& r);

}  // namespace verify
