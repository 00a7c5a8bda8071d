#include "verify_report.hpp"

#include "common/js_json_text.hpp"
#include "reconcile_report.hpp"

namespace bp::cli {
namespace {

constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kReset = "\x1b[0m";

std::string paint(std::string_view text, std::string_view sgr, bool on) {
  if (!on) return std::string(text);
  return std::string(sgr) + std::string(text) + std::string(kReset);
}

}  // namespace

std::string status_tag(CheckStatus s, bool color) {
  switch (s) {
    case CheckStatus::pass: return paint("PASS", kGreen, color);
    case CheckStatus::warn: return paint("WARN", kYellow, color);
    case CheckStatus::skip: return paint("SKIP", kYellow, color);
    case CheckStatus::fail: break;
  }
  return paint("FAIL", kRed, color);
}

void Verdict::add(const Check& c) {
  if (c.status == CheckStatus::fail) fail_ = true;
  if (c.status == CheckStatus::warn) warn_ = true;
  if (c.status == CheckStatus::skip && !c.strict_exempt) strict_skip_ = true;
}

std::string_view Verdict::overall(const VerdictOptions& o) const {
  if (fail_) return "fail";
  if (o.strict && (warn_ || strict_skip_)) return "fail";
  if (o.warn_as_fail && warn_) return "fail";
  return warn_ ? "warn" : "pass";
}

void VerifyReport::finalize(const VerdictOptions& options) {
  Verdict v;
  for (const auto& c : checks) v.add(c);
  overall = std::string(v.overall(options));
}

std::string_view status_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::pass: return "pass";
    case CheckStatus::fail: return "fail";
    case CheckStatus::warn: return "warn";
    case CheckStatus::skip: return "skip";
  }
  return "fail";
}

nlohmann::ordered_json check_json(const Check& c) {
  nlohmann::ordered_json j;
  j["name"] = c.name;
  j["status"] = std::string(status_name(c.status));
  if (c.strict_exempt) j["strictExempt"] = true;
  if (c.message) j["message"] = *c.message;
  if (c.evidence) j["evidence"] = *c.evidence;
  return j;
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

std::string report_envelope(const VerifyReport& r) {
  nlohmann::ordered_json j;
  j["ok"] = !r.failed();
  j["report"] = report_json(r);
  return common::js_stringify(j) + "\n";
}

std::string render_check(const Check& c, bool color) {
  std::string out = "  [" + status_tag(c.status, color) + "] " + c.name;
  if (c.message && !c.message->empty()) out += ": " + *c.message;
  out += "\n";
  if (c.status == CheckStatus::fail && c.evidence) {
    const std::string pretty = common::js_stringify_pretty(*c.evidence, 2);
    std::size_t start = 0;
    while (start <= pretty.size()) {
      const auto nl = pretty.find('\n', start);
      const auto end = nl == std::string::npos ? pretty.size() : nl;
      out += "    " + pretty.substr(start, end - start) + "\n";
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
  return out;
}

std::string paint_header(std::string_view text, std::string_view overall, bool color) {
  const std::string bold_color =
      std::string(kBold) + std::string(overall == "pass" ? kGreen : overall == "warn" ? kYellow : kRed);
  return paint(text, bold_color, color);
}

std::string render_report(const VerifyReport& r, bool color, bool verbose) {
  const std::string_view text = r.overall == "pass"   ? "verification passed"
                                : r.overall == "warn" ? "verification passed with warnings"
                                                      : "verification failed";
  std::string out = paint_header(text, r.overall, color) + "\n\n";
  for (const auto& c : r.checks) out += render_check(c, color);
  if (verbose && r.has_coverage) out += "\n  " + coverage_line(r.rules_evaluated, r.gated_off) + "\n";
  return out;
}

}  // namespace bp::cli
