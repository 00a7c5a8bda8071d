#pragma once
// The verdict of one verify run as a value: an ordered list of named checks (pass / fail / warn /
// skip), each with an optional message and evidence, rolled up into overall "pass" / "warn" /
// "fail" under --warn-as-fail and --strict. bp renders it (apps/bp/verify_report.hpp); its JSON
// form, the reference's `report` object, is report_json.hpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace verify {

enum class CheckStatus { pass, fail, warn, skip };

struct Check {
  std::string name;
  CheckStatus status = CheckStatus::pass;
  // A skip that is correct by design (observer-mode engine-reproduce): does not fail --strict.
  bool strict_exempt = false;
  std::optional<std::string> message{};
  std::optional<nlohmann::ordered_json> evidence{};
};

struct VerdictOptions {
  bool warn_as_fail = false;  // warn -> fail
  bool strict = false;        // warn or (non-exempt) skip -> fail
};

// Rolls checks up one at a time, so a bundle of a million records needs no list of them.
class Verdict {
 public:
  void add(const Check& c);
  [[nodiscard]] std::string_view overall(const VerdictOptions& options) const;  // "pass" | "warn" | "fail"

 private:
  bool fail_ = false;
  bool warn_ = false;
  bool strict_skip_ = false;
};

struct VerifyReport {
  std::vector<Check> checks;
  std::string overall = "pass";
  bool math_gate_skipped = false;
  std::vector<int> skipped_rules;
  bool has_coverage = false;
  std::vector<int> rules_evaluated, gated_off;

  // Adds the check and recomputes nothing: call finalize() when all are in.
  void add(Check c) { checks.push_back(std::move(c)); }
  void finalize(const VerdictOptions& options);
  [[nodiscard]] bool failed() const { return overall == "fail"; }
};

[[nodiscard]] std::string_view status_name(CheckStatus s);

// "name: message" of the first failed check, else of the first that is not a pass; empty when all
// pass (the one-line reason of `bp verify general DIR`).
[[nodiscard]] std::string first_problem(const VerifyReport& r);

}  // namespace verify
