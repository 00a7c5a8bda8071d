#include "verify/report_json.hpp"

#include "common/js_json_text.hpp"
#include "common/json_string.hpp"

namespace verify {

nlohmann::ordered_json check_json(const Check& c) {
  nlohmann::ordered_json j;
  j["name"] = c.name;
  j["status"] = std::string(status_name(c.status));
  if (c.strict_exempt) j["strictExempt"] = true;
  if (c.message) j["message"] = *c.message;
  if (c.evidence) j["evidence"] = *c.evidence;
  return j;
}

void append_check_json(std::string& out, const Check& c) {
  out += "{\"name\":";
  common::append_json_string(out, c.name);
  out += ",\"status\":";
  common::append_json_string(out, status_name(c.status));
  if (c.strict_exempt) out += ",\"strictExempt\":true";
  if (c.message) {
    out += ",\"message\":";
    common::append_json_string(out, *c.message);
  }
  if (c.evidence) {
    out += ",\"evidence\":";
    out += common::js_stringify(*c.evidence);
  }
  out += '}';
}

nlohmann::ordered_json report_json(const VerifyReport& r) {
  nlohmann::ordered_json j;
  j["overall"] = r.overall;
  auto& checks = j["checks"] = nlohmann::ordered_json::array();
  for (const auto& c : r.checks) checks.push_back(check_json(c));
  if (r.math_gate_skipped) {
    j["math_gate_skipped"] = true;
    j["skipped_rules"] = r.skipped_rules;
  }
  if (r.has_coverage) {
    j["rules_evaluated"] = r.rules_evaluated;
    j["gated_off"] = r.gated_off;
  }
  return j;
}

}  // namespace verify
