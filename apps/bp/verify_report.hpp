#pragma once
// The verdict of `bp verify`: an ordered list of named checks (pass / fail / warn / skip), each with
// an optional message and evidence, rolled up into overall "pass" / "warn" / "fail" under
// --warn-as-fail and --strict, and written the reference's way: {"ok":..,"report":{..}} on stdout
// under --json, otherwise "verification passed|failed" and "  [PASS] name: message" lines on stderr.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bp::cli {

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
[[nodiscard]] nlohmann::ordered_json check_json(const Check& c);
// {"overall":..,"checks":[..],"math_gate_skipped"?,"skipped_rules"?,"rules_evaluated"?,"gated_off"?}
[[nodiscard]] nlohmann::ordered_json report_json(const VerifyReport& r);
// The --json line: {"ok":<overall != fail>,"report":{..}}\n
[[nodiscard]] std::string report_envelope(const VerifyReport& r);

// "  [PASS] name: message\n" and, for a failed check, its evidence as indented JSON.
[[nodiscard]] std::string render_check(const Check& c, bool color);
// The whole human report (header, blank line, checks, the coverage line when `verbose`), "\n"-ended.
[[nodiscard]] std::string render_report(const VerifyReport& r, bool color, bool verbose);

// "PASS" / "FAIL" / "WARN" / "SKIP", colored when `color`.
[[nodiscard]] std::string status_tag(CheckStatus s, bool color);

// Header colors shared with the multi report.
[[nodiscard]] std::string paint_header(std::string_view text, std::string_view overall, bool color);

}  // namespace bp::cli
