#pragma once
// The three checks only `bp verify mazur` runs, against bp's bundled fixtures (found from any
// working directory, see fixture_locator.hpp):
//   byte-equal-vs-golden    the built-in Mazur step, emitted now, equals fixtures/mazur.golden.jsonl;
//   fixture-status          authoring_state / verification_state / canonical hold v0.1 values;
//   published-anchor-drift  the receipt's post_update_loss.total against the claims of
//                           fixtures/mazur.published.json (hard_gate claims fail, others warn).
#include <nlohmann/json.hpp>

#include "verify_report.hpp"

namespace bp::cli {

[[nodiscard]] Check byte_equal_vs_golden_check();
[[nodiscard]] Check fixture_status_check(const nlohmann::ordered_json& receipt);
[[nodiscard]] Check published_anchor_drift_check(const nlohmann::ordered_json& receipt);

}  // namespace bp::cli
