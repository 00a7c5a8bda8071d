#pragma once
// The three checks only `verify mazur` runs, against the suite's Mazur fixtures (bp passes the
// copies it ships, apps/bp/share_locator.hpp):
//   byte-equal-vs-golden    the built-in Mazur step, emitted now, equals fixtures/mazur.golden.jsonl;
//   fixture-status          authoring_state / verification_state / canonical hold v0.1 values;
//   published-anchor-drift  the receipt's post_update_loss.total against the claims of
//                           fixtures/mazur.published.json (hard_gate claims fail, others warn).
// A fixture that cannot be read fails its check ("... check could not run: <the reader's message>"),
// as in the reference; a caller that can tell a broken installation from a bad receipt loads the
// fixtures first (load_mazur_fixtures) and reports that before any receipt is judged.
#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "verify/report.hpp"

namespace verify {

// Reads one fixture file of at most `max_bytes`; the error's message is quoted in the check.
using FixtureReader = std::function<common::Result<std::string>(const std::string& path, std::size_t max_bytes)>;

struct MazurFixtures {
  std::string golden_path;     // mazur.golden.jsonl
  std::string published_path;  // mazur.published.json
  FixtureReader read;          // empty: common::read_text on the real file system
};

// Reads both fixtures once, through `fixtures.read`, and parses the ledger: the error names the
// file that is missing, unreadable or not JSON. The result serves the texts read (no second read,
// so the checks judge what was loaded).
[[nodiscard]] common::Result<MazurFixtures> load_mazur_fixtures(const MazurFixtures& fixtures);

[[nodiscard]] Check byte_equal_vs_golden_check(const MazurFixtures& fixtures);
[[nodiscard]] Check fixture_status_check(const nlohmann::ordered_json& receipt);
[[nodiscard]] Check published_anchor_drift_check(const nlohmann::ordered_json& receipt, const MazurFixtures& fixtures);

}  // namespace verify
