#pragma once
// The checks the verify gates compose, each a function from a parsed receipt to a Check (or, for
// reconcile, to the Result it also needs): schema, reconcile, the math-gate downgrade and
// engine-reproduce. general.cpp and multi_run.cpp put them in the reference's order.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "reconcile/failure.hpp"
#include "verify/report.hpp"

namespace verify {

// Validates against `version` ("0.1.0" for verify mazur) or, when empty, the version the receipt
// names. The check is named `name` ("schema", "schema[3]").
[[nodiscard]] Check schema_check(const nlohmann::ordered_json& receipt, std::string name, std::string_view version = {});
// The same check of a receipt read as a JsonDocument: the same errors, the same Check.
[[nodiscard]] Check schema_check(common::JsonView receipt, std::string name, std::string_view version = {});

// "pass" or "fail" with "<n> rule failure(s)" and the failures as evidence.
[[nodiscard]] Check reconcile_check(const reconcile::Result& result, std::string name);

// The distinct failing check when the receipt self-declares the Rule 14 skip (verify general).
[[nodiscard]] std::optional<Check> math_gate_check(const reconcile::Result& result);

// Regenerate the receipt from its own inputs and compare canonical bytes with a re-emission of it.
// `mazur` phrases an engine abort the way `verify mazur` does. `receipt_text`, when given, is the
// text the receipt was parsed from: when our bytes equal it (a receipt as generated), the
// re-emission is skipped, because canonical emission is idempotent (emitting a parse of its own
// output gives that output back; tests/verify/engine_reproduce_text_test.cpp checks it).
[[nodiscard]] Check engine_reproduce_check(const nlohmann::ordered_json& receipt, bool mazur,
                                           std::string_view receipt_text = {});

// What the reference's verbose lines and multi report call a receipt: schema_version and the
// fixture id (fixture, fixture_id, id, provenance.fixture_id or provenance.id; strings only).
struct ReceiptLabel {
  std::optional<std::string> schema_version;
  std::optional<std::string> fixture_id;
};
[[nodiscard]] ReceiptLabel describe_receipt(const nlohmann::ordered_json& receipt);
[[nodiscard]] ReceiptLabel describe_receipt(common::JsonView receipt);

}  // namespace verify
