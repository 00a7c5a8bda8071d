#pragma once
// A verify report as the JSON the reference's `bp verify --json` writes inside its envelope:
// {"overall":..,"checks":[..],"math_gate_skipped"?,"skipped_rules"?,"rules_evaluated"?,"gated_off"?},
// each check {"name","status","strictExempt"?,"message"?,"evidence"?}.
#include <string>

#include <nlohmann/json.hpp>

#include "verify/report.hpp"

namespace verify {

[[nodiscard]] nlohmann::ordered_json check_json(const Check& c);
// js_stringify(check_json(c)) appended to `out`, without building the tree (verify multi writes
// two checks a record).
void append_check_json(std::string& out, const Check& c);
[[nodiscard]] nlohmann::ordered_json report_json(const VerifyReport& r);

}  // namespace verify
