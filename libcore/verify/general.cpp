#include "verify/general.hpp"

#include <optional>
#include <string>
#include <utility>

#include "reconcile/reconcile.hpp"
#include "verify/checks.hpp"
#include "verify/mazur_topology.hpp"

namespace verify {
namespace {

void set_coverage(VerifyReport& report, const reconcile::Result& r) {
  report.has_coverage = !(r.rules_evaluated.empty() && r.gated_off.empty());
  report.rules_evaluated = r.rules_evaluated;
  report.gated_off = r.gated_off;
}

const std::string* string_member(const nlohmann::ordered_json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

Check observer_skip(const nlohmann::ordered_json& receipt, bool reconcile_ok) {
  Check c;
  c.name = "engine-reproduce";
  c.status = CheckStatus::skip;
  c.strict_exempt = true;
  std::string state;
  if (auto it = receipt.find("fixture_status"); it != receipt.end()) {
    if (const auto* v = string_member(*it, "verification_state")) state = ", verification_state=\"" + *v + "\"";
  }
  c.message = "observer-mode receipt (authoring_state=\"external_imported\"): byte-equality engine-reproduce is N/A "
              "— canonical bytes carry foreign framework math. Soundness gate is Rule 14 (engine-recompute "
              "differential within attestor.differential_tolerance), evaluated under the 'reconcile' check above "
              "(reconcile=" +
              std::string(reconcile_ok ? "pass" : "fail") + state + ").";
  return c;
}

// Adds the schema check; false when it failed, which ends the pipeline (the report is finalized).
bool schema_passes(VerifyReport& report, Check schema, const VerdictOptions& options) {
  const bool ok = schema.status == CheckStatus::pass;
  report.add(std::move(schema));
  if (!ok) report.finalize(options);
  return ok;
}

bool is_external_imported(const nlohmann::ordered_json& receipt) {
  if (!receipt.is_object()) return false;
  auto it = receipt.find("fixture_status");
  if (it == receipt.end()) return false;
  const auto* state = string_member(*it, "authoring_state");
  return state && *state == "external_imported";
}

// schema-dispatch (a v0.1.0 receipt goes to verify mazur) and schema, on either form of the
// receipt; false: the report is final.
template <class Receipt>
bool front_gates(const std::string* schema_version, const Receipt& receipt, const GeneralOptions& general, VerifyReport& report) {
  const VerdictOptions& options = general.verdict;
  if (schema_version && *schema_version == "0.1.0") {
    Check c;
    c.name = "schema-dispatch";
    c.status = CheckStatus::fail;
    c.message = "Receipt declares schema_version \"0.1.0\" (the Mazur 2-2-2 pinned schema). Use 'bp verify mazur " +
                general.subject +
                "' instead — that verifier handles v0.1 receipts including byte-equal-vs-golden + published-anchor "
                "drift checks. 'bp verify general' targets v0.2.0+ generalized receipts (XOR, iris, softmax+CE, custom "
                "topologies) which carry topology.unit_order + topology.parameter_order that the general engine "
                "requires.";
    report.add(std::move(c));
    report.finalize(options);
    return false;
  }
  return schema_passes(report, schema_check(receipt, "schema"), options);
}

// The gates after the schema, which passed: reconcile, math-gate, engine-reproduce.
// `text`: what the receipt was parsed from, when known (engine_reproduce_check).
VerifyReport verify_schema_valid(const nlohmann::ordered_json& receipt, const GeneralOptions& general, VerifyReport report,
                                 std::string_view text = {}) {
  const VerdictOptions& options = general.verdict;
  // Deliberate difference (bp(1)): sums are judged against their terms' size.
  const reconcile::Result result = reconcile::reconcile_receipt(receipt, {.term_scaled_sums = true, .engine_labels = true});
  report.add(reconcile_check(result, "reconcile"));
  if (auto gate = math_gate_check(result)) {
    report.math_gate_skipped = true;
    report.skipped_rules = gate->evidence->at("skipped_rules").get<std::vector<int>>();
    report.add(std::move(*gate));
  }
  if (is_external_imported(receipt)) {
    report.add(observer_skip(receipt, result.ok));
  } else {
    report.add(engine_reproduce_check(receipt, false, text));
  }
  report.finalize(options);
  set_coverage(report, result);
  return report;
}

}  // namespace

VerifyReport verify_general(const nlohmann::ordered_json& receipt, const GeneralOptions& general, std::string_view text) {
  VerifyReport report;
  if (!front_gates(string_member(receipt, "schema_version"), receipt, general, report)) return report;
  return verify_schema_valid(receipt, general, std::move(report), text);
}

VerifyReport verify_general(common::JsonDocument&& receipt, const GeneralOptions& general) {
  VerifyReport report;
  std::optional<std::string> version;
  if (const common::JsonView root = receipt.root(); root.is_object()) {
    if (auto v = root.find("schema_version"); v && v->is_string()) version = std::string(v->string());
  }
  if (!front_gates(version ? &*version : nullptr, receipt.root(), general, report)) return report;
  nlohmann::ordered_json tree = common::to_ordered_json(receipt.root());
  const std::string text = std::move(receipt.text());  // the nodes, not the text, are let go
  receipt = common::JsonDocument();
  return verify_schema_valid(tree, general, std::move(report), text);
}

namespace {

// The Mazur gate after its schema check passed (in `report`).
VerifyReport mazur_after_schema(const nlohmann::ordered_json& receipt, const MazurOptions& mazur, VerifyReport report) {
  const VerdictOptions& options = mazur.verdict;
  if (auto topology = mazur_topology_check(receipt)) report.add(std::move(*topology));
  const reconcile::Result result = reconcile::reconcile_receipt(receipt);
  report.add(reconcile_check(result, "reconcile"));
  report.add(engine_reproduce_check(receipt, true));
  report.add(byte_equal_vs_golden_check(mazur.fixtures));
  report.add(fixture_status_check(receipt));
  report.add(published_anchor_drift_check(receipt, mazur.fixtures));
  report.finalize(options);
  set_coverage(report, result);
  return report;
}

}  // namespace

VerifyReport verify_mazur(const nlohmann::ordered_json& receipt, const MazurOptions& mazur) {
  VerifyReport report;
  if (!schema_passes(report, schema_check(receipt, "schema", "0.1.0"), mazur.verdict)) return report;
  return mazur_after_schema(receipt, mazur, std::move(report));
}

VerifyReport verify_mazur(common::JsonDocument&& receipt, const MazurOptions& mazur) {
  VerifyReport report;
  if (!schema_passes(report, schema_check(receipt.root(), "schema", "0.1.0"), mazur.verdict)) return report;
  nlohmann::ordered_json tree = common::to_ordered_json(receipt.root());
  receipt = common::JsonDocument();
  return mazur_after_schema(tree, mazur, std::move(report));
}

}  // namespace verify
