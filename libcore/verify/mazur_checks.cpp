#include "verify/mazur_checks.hpp"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "common/js_json_text.hpp"
#include "common/js_text.hpp"
#include "common/json_input.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"

namespace verify {
namespace {

constexpr std::size_t kMaxLedgerBytes = std::size_t{16} * 1024 * 1024;

Check failed(std::string name, std::string message) {
  Check c;
  c.name = std::move(name);
  c.status = CheckStatus::fail;
  c.message = std::move(message);
  return c;
}

// JSON.stringify of a member that may be absent ("undefined").
std::string shown(const nlohmann::ordered_json& obj, const char* key) {
  if (!obj.is_object()) return "undefined";
  auto it = obj.find(key);
  return it == obj.end() ? "undefined" : common::js_stringify(*it);
}

// The receipt value a published claim id names; unknown ids have none.
const char* claim_path(const std::string& id) {
  return id == "post_update_total_error" ? "post_update_loss.total" : nullptr;
}

const nlohmann::ordered_json* resolve(const nlohmann::ordered_json& root, const std::string& dotted) {
  const nlohmann::ordered_json* cur = &root;
  std::size_t start = 0;
  while (true) {
    const auto dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(part);
    if (it == cur->end()) return nullptr;
    cur = &*it;
    if (dot == std::string::npos) return cur;
    start = dot + 1;
  }
}

common::Result<std::string> read_fixture(const MazurFixtures& fixtures, const std::string& path, std::size_t max_bytes) {
  if (fixtures.read) return fixtures.read(path, max_bytes);
  return common::read_text(common::real_file_system(), path, max_bytes);
}

}  // namespace

common::Result<MazurFixtures> load_mazur_fixtures(const MazurFixtures& fixtures) {
  auto golden = read_fixture(fixtures, fixtures.golden_path, common::kMaxJsonInputBytes);
  if (!golden) return golden.error().at_file(fixtures.golden_path);
  auto ledger = read_fixture(fixtures, fixtures.published_path, kMaxLedgerBytes);
  if (!ledger) return ledger.error().at_file(fixtures.published_path);
  if (auto parsed = common::parse_json_text(*ledger, {.file = fixtures.published_path, .bom = common::BomPolicy::strip});
      !parsed) {
    return parsed.error();
  }
  MazurFixtures loaded = fixtures;
  loaded.read = [golden_path = fixtures.golden_path, ledger_path = fixtures.published_path,
                 golden_text = std::move(*golden), ledger_text = std::move(*ledger)](
                    const std::string& path, std::size_t max_bytes) -> common::Result<std::string> {
    if (path != golden_path && path != ledger_path) return common::Error::io("not a loaded fixture", {path, 0, {}});
    const std::string& text = path == golden_path ? golden_text : ledger_text;
    if (text.size() > max_bytes) {
      return common::Error::io("file is " + std::to_string(text.size()) + " bytes; the limit is " +
                                   std::to_string(max_bytes),
                               {path, 0, {}});
    }
    return text;
  };
  return loaded;
}

Check byte_equal_vs_golden_check(const MazurFixtures& fixtures) {
  const std::string name = "byte-equal-vs-golden";
  auto golden = read_fixture(fixtures, fixtures.golden_path, common::kMaxJsonInputBytes);
  if (!golden) return failed(name, "byte-equal check could not run: " + golden.error().message());
  auto receipts = receipt::engine::generate_builtin("mazur");
  if (!receipts) return failed(name, "byte-equal check could not run: " + receipts.error().to_string());
  auto emitted = receipt::emit::emit_receipts(*receipts);
  if (!emitted) return failed(name, "byte-equal check could not run: " + emitted.error().to_string());
  const std::string& want = *golden;
  if (*emitted == want) return Check{name};
  std::size_t offset = 0;
  while (offset < emitted->size() && offset < want.size() && (*emitted)[offset] == want[offset]) ++offset;
  offset = common::utf16_units(std::string_view(*emitted).substr(0, offset));  // counted as the reference counts
  Check c = failed(name, "engine bytes diverge from fixtures/mazur.golden.jsonl at offset " + std::to_string(offset));
  nlohmann::ordered_json evidence;
  evidence["drift_offset"] = offset;
  evidence["emitted_length"] = common::utf16_units(*emitted);
  evidence["golden_length"] = common::utf16_units(want);
  c.evidence = std::move(evidence);
  return c;
}

Check fixture_status_check(const nlohmann::ordered_json& receipt) {
  const std::string name = "fixture-status";
  const nlohmann::ordered_json* status = nullptr;
  if (receipt.is_object()) {
    if (auto it = receipt.find("fixture_status"); it != receipt.end() && (it->is_object() || it->is_array())) {
      status = &*it;
    }
  }
  if (status == nullptr) return failed(name, "fixture_status block is missing or not an object");
  static const std::array<std::string_view, 3> kAuthoring = {"hand_derived", "engine_generated",
                                                             "deliberately_corrupted"};
  static const std::array<std::string_view, 3> kVerification = {
      "pending_engine_reproduction", "engine_reproduced_byte_equal", "expected_to_fail_reconciliation"};
  auto one_of = [&](const char* key, const auto& allowed) {
    if (!status->is_object()) return false;
    auto it = status->find(key);
    if (it == status->end() || !it->is_string()) return false;
    for (auto a : allowed) {
      if (it->template get_ref<const std::string&>() == a) return true;
    }
    return false;
  };
  auto joined = [](const auto& allowed) {
    std::string s;
    for (auto a : allowed) s += (s.empty() ? "" : ", ") + std::string(a);
    return s;
  };
  std::vector<std::string> issues;
  if (!one_of("authoring_state", kAuthoring)) {
    issues.push_back("authoring_state must be one of " + joined(kAuthoring) + "; got " +
                     shown(*status, "authoring_state"));
  }
  if (!one_of("verification_state", kVerification)) {
    issues.push_back("verification_state must be one of " + joined(kVerification) + "; got " +
                     shown(*status, "verification_state"));
  }
  const auto canonical = status->is_object() ? status->find("canonical") : status->end();
  if (!status->is_object() || canonical == status->end() || !canonical->is_boolean()) {
    issues.push_back("canonical must be boolean; got " + shown(*status, "canonical"));
  }
  if (issues.empty()) return Check{name};
  std::string message;
  for (const auto& i : issues) message += (message.empty() ? "" : "; ") + i;
  Check c = failed(name, message);
  c.evidence = issues;
  return c;
}

Check published_anchor_drift_check(const nlohmann::ordered_json& receipt, const MazurFixtures& fixtures) {
  const std::string name = "published-anchor-drift";
  const std::string& path = fixtures.published_path;
  auto text = read_fixture(fixtures, path, kMaxLedgerBytes);
  if (!text) return failed(name, "published-anchor check could not run: " + text.error().message());
  auto ledger = common::parse_json_text(*text, {.file = path, .bom = common::BomPolicy::strip});
  if (!ledger) return failed(name, "published-anchor check could not run: " + ledger.error().to_string());
  const nlohmann::ordered_json* claims = nullptr;
  if (ledger->is_object()) {
    if (auto it = ledger->find("claims"); it != ledger->end() && it->is_array()) claims = &*it;
  }
  if (claims == nullptr || claims->empty()) {
    Check c{name, CheckStatus::skip};
    c.message = "fixtures/mazur.published.json has no claims to check";
    return c;
  }
  std::vector<std::string> failures, warnings;
  for (const auto& claim : *claims) {
    const std::string id = claim.is_object() && claim.contains("id") && claim["id"].is_string()
                               ? claim["id"].get<std::string>()
                               : common::js_stringify(claim.is_object() && claim.contains("id") ? claim["id"] : nullptr);
    const bool hard = claim.is_object() && claim.contains("hard_gate") && claim["hard_gate"].is_boolean() &&
                      claim["hard_gate"].get<bool>();
    const char* lookup = claim_path(id);
    if (lookup == nullptr) {
      warnings.push_back("claim " + id + ": no known receipt path (skipped); bp knows post_update_total_error only.");
      continue;
    }
    const auto* actual = resolve(receipt, lookup);
    if (actual == nullptr || !actual->is_number()) {
      const std::string msg = "claim " + id + ": receipt path '" + lookup + "' did not resolve to a number (got " +
                              (actual ? common::js_stringify(*actual) : std::string("undefined")) + ")";
      (hard ? failures : warnings).push_back(msg);
      continue;
    }
    const double value = claim.contains("value") && claim["value"].is_number() ? claim["value"].get<double>() : NAN;
    double tolerance = 1e-9;
    if (claim.contains("drift_absolute") && claim["drift_absolute"].is_number()) {
      tolerance = claim["drift_absolute"].get<double>() * 1.5;  // small slack on the documented drift
    } else if (const auto* policy = resolve(receipt, "numeric_policy.tolerance"); policy && policy->is_number()) {
      tolerance = policy->get<double>();
    }
    const double drift = std::fabs(actual->get<double>() - value);
    if (drift > tolerance) {
      const std::string msg = "claim " + id + ": receipt value " + common::js_number_text(actual->get<double>()) +
                              " drifts from published " + common::js_number_text(value) + " by " +
                              common::js_to_exponential(drift, 3) + " (tolerance " +
                              common::js_to_exponential(tolerance, 3) + ")";
      (hard ? failures : warnings).push_back(msg);
    }
  }
  if (failures.empty() && warnings.empty()) return Check{name};
  if (!failures.empty()) {
    Check c = failed(name, std::to_string(failures.size()) + " hard-gate drift(s)");
    nlohmann::ordered_json evidence;
    evidence["failures"] = failures;
    evidence["warnings"] = warnings;
    c.evidence = std::move(evidence);
    return c;
  }
  Check c{name, CheckStatus::warn};
  c.message = std::to_string(warnings.size()) + " soft-gate drift(s) — WARN only";
  c.evidence = warnings;
  return c;
}

}  // namespace verify
