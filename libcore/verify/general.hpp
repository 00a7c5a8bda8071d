#pragma once
// The single-receipt gates of `bp verify general|mazur`, in the reference's fixed order (each a
// short circuit where the reference stops); each takes a parsed receipt and returns the report:
//   general: schema-dispatch (a v0.1.0 receipt is sent to `verify mazur`), schema, reconcile,
//            math-gate (when the receipt self-declares the Rule 14 skip), engine-reproduce
//            (skipped, strict-exempt, for observer-mode receipts).
//   mazur:   schema (v0.1.0), reconcile, engine-reproduce, byte-equal-vs-golden,
//            fixture-status, published-anchor-drift (bundled fixtures/mazur.published.json).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "verify/mazur_checks.hpp"
#include "verify/report.hpp"

namespace verify {

struct GeneralOptions {
  VerdictOptions verdict;
  std::string subject;  // the path as the user wrote it (quoted in the v0.1.0 redirect message)
};

struct MazurOptions {
  VerdictOptions verdict;
  MazurFixtures fixtures;
};

// `text`, when given, is the text the receipt was parsed from (engine-reproduce compares with it
// first; verify/checks.hpp).
[[nodiscard]] VerifyReport verify_general(const nlohmann::ordered_json& receipt, const GeneralOptions& options,
                                          std::string_view text = {});
// The same report for a receipt read as a JsonDocument: schema-dispatch and schema read it in
// place, and only a receipt its schema accepts becomes a tree (for the rules and the engine), the
// document freed first. A text the schema refuses, however large (12 million empty objects),
// then costs a few times its size, not the fifty of a tree.
[[nodiscard]] VerifyReport verify_general(common::JsonDocument&& receipt, const GeneralOptions& options);

[[nodiscard]] VerifyReport verify_mazur(const nlohmann::ordered_json& receipt, const MazurOptions& options);
// The same for a receipt read as a JsonDocument: the schema (the gate's first check) reads it in
// place, and only a receipt it accepts becomes a tree, as verify_general's document form does.
[[nodiscard]] VerifyReport verify_mazur(common::JsonDocument&& receipt, const MazurOptions& options);

}  // namespace verify
