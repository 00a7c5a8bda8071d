#include "verify/checks.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/js_text.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "reconcile/coverage.hpp"
#include "reconcile/result_json.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "verify/divergence.hpp"

namespace verify {
namespace {

const std::string* string_at(const nlohmann::ordered_json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return nullptr;
  return &it->get_ref<const std::string&>();
}

// Either form of a receipt: the validator and the version pick read both the same way.
template <class Receipt>
Check schema_check_of(const Receipt& receipt, std::string name, std::string_view version) {
  Check c;
  c.name = std::move(name);
  const std::string v = version.empty() ? schema_registry::pick_receipt_version(receipt) : std::string(version);
  const auto* schema = schema_registry::find_schema(v);
  std::vector<common::Error> errors;
  if (schema == nullptr) {
    errors.push_back(common::Error::malformed("no receipt schema " + v + " in this build"));
  } else {
    errors = schema_registry::validate(*schema, receipt);
  }
  if (errors.empty()) return c;
  c.status = CheckStatus::fail;
  c.message = "schema validation failed (" + std::to_string(errors.size()) + " error(s))";
  auto evidence = nlohmann::ordered_json::array();
  for (const auto& e : errors) {
    nlohmann::ordered_json one;
    one["instancePath"] = e.where().json_path;
    one["message"] = e.message();
    evidence.push_back(std::move(one));
  }
  c.evidence = std::move(evidence);
  return c;
}

std::optional<std::string> string_at(common::JsonView obj, std::string_view key) {
  if (!obj.is_object()) return std::nullopt;
  auto v = obj.find(key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->string());
}

const nlohmann::ordered_json* member(const nlohmann::ordered_json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::optional<common::JsonView> member(common::JsonView obj, std::string_view key) { return obj.find(key); }

// Either form of a receipt (verify multi labels a record before it knows whether a tree is built).
template <class Receipt>
ReceiptLabel describe_receipt_of(const Receipt& r) {
  ReceiptLabel out;
  if (!r.is_object()) return out;
  if (const auto v = string_at(r, "schema_version")) out.schema_version = *v;
  for (const char* key : {"fixture", "fixture_id", "id"}) {
    if (const auto v = string_at(r, key)) {
      out.fixture_id = *v;
      return out;
    }
  }
  if (const auto provenance = member(r, "provenance")) {
    if (const auto v = string_at(*provenance, "fixture_id")) {
      out.fixture_id = *v;
    } else if (const auto w = string_at(*provenance, "id")) {
      out.fixture_id = *w;
    }
  }
  return out;
}

}  // namespace

Check schema_check(const nlohmann::ordered_json& receipt, std::string name, std::string_view version) {
  return schema_check_of(receipt, std::move(name), version);
}

Check schema_check(common::JsonView receipt, std::string name, std::string_view version) {
  return schema_check_of(receipt, std::move(name), version);
}

Check reconcile_check(const reconcile::Result& result, std::string name) {
  Check c;
  c.name = std::move(name);
  if (result.ok) return c;
  c.status = CheckStatus::fail;
  c.message = std::to_string(result.failures.size() + result.failures_dropped) + " rule failure(s)";
  c.evidence = reconcile::to_json(result.failures);
  return c;
}

std::optional<Check> math_gate_check(const reconcile::Result& result) {
  if (!result.math_gate_skipped) return std::nullopt;
  const std::vector<int> rules = result.skipped_rules.empty() ? std::vector<int>{14} : result.skipped_rules;
  const std::string list = reconcile::join_rules(rules);
  Check c;
  c.name = "math-gate";
  c.status = CheckStatus::fail;
  c.message = "receipt self-declares fixture_status.verification_state=\"engine_recompute_skipped_with_basis\" — the "
              "engine-recompute differential (Rule " +
              list +
              "), the only independent math gate on observer-mode imports, was SKIPPED on the receipt's own say-so. "
              "This is NOT a verified PASS: the foreign framework math was never recomputed. The receipt is trusted "
              "on its declared attestor.skip_basis alone. Re-import without the skip (let Rule 14 run) to obtain a "
              "verified result, or treat this receipt as unverified.";
  nlohmann::ordered_json evidence;
  evidence["math_gate_skipped"] = true;
  evidence["skipped_rules"] = rules;
  c.evidence = std::move(evidence);
  return c;
}

namespace {

// The receipt's own text, read, is our emission: "{...}\n", or that without the line's final
// newline. Compared as our bytes are written, so that no second copy of megabytes is made.
bool text_is_ours(const std::vector<receipt::engine::EngineReceipt>& ours, std::string_view text) {
  if (text.empty()) return false;
  if (text.back() == '\n') return receipt::emit::emits_exactly(ours, text);
  return receipt::emit::emits_exactly(ours, std::string(text) + "\n");
}

}  // namespace

Check engine_reproduce_check(const nlohmann::ordered_json& receipt, bool mazur, std::string_view receipt_text) {
  Check c;
  c.name = "engine-reproduce";
  auto aborted = [&](const common::Error& e) {
    c.status = CheckStatus::fail;
    c.message = (mazur ? "engine recompute aborted: " : "") + e.to_string();
    return c;
  };
  auto regenerated = receipt::reproduce::reproduce(std::span(&receipt, 1));  // no copy of a receipt of megabytes
  if (!regenerated) return aborted(regenerated.error());
  if (text_is_ours(*regenerated, receipt_text)) return c;
  auto ours = receipt::emit::emit_receipts(*regenerated, receipt_text.size() + 1);
  if (!ours) return aborted(ours.error());
  auto theirs = receipt::emit::emit_receipt_line(receipt);
  if (!theirs) return aborted(theirs.error());
  if (*ours == *theirs) return c;
  std::size_t i = 0;
  while (i < ours->size() && i < theirs->size() && (*ours)[i] == (*theirs)[i]) ++i;
  c.status = CheckStatus::fail;
  // Offsets and lengths in UTF-16 code units, as the reference counts them.
  const std::size_t at = common::utf16_units(std::string_view(*ours).substr(0, i));
  const Divergence where = locate_divergence(*ours, *theirs, i);
  c.message = "engine output diverges from receipt at byte " + std::to_string(at) + " (" +
              (where.path.empty() ? std::string("the document") : where.path) + ": receipt " +
              (where.theirs.empty() ? std::string("(ends)") : where.theirs) + ", engine " +
              (where.ours.empty() ? std::string("(ends)") : where.ours) + ")";
  nlohmann::ordered_json evidence;
  evidence["first_differing_byte"] = at;
  evidence["field"] = where.path;
  evidence["receipt_value"] = where.theirs;
  evidence["engine_value"] = where.ours;
  evidence["our_length"] = common::utf16_units(*ours);
  evidence["their_length"] = common::utf16_units(*theirs);
  c.evidence = std::move(evidence);
  return c;
}

ReceiptLabel describe_receipt(const nlohmann::ordered_json& r) { return describe_receipt_of(r); }

ReceiptLabel describe_receipt(common::JsonView r) { return describe_receipt_of(r); }

}  // namespace verify
