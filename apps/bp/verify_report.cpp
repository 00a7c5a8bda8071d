#include "verify_report.hpp"

#include "common/js_json_text.hpp"
#include "reconcile_report.hpp"
#include "verify/report_json.hpp"

namespace bp::cli {
namespace {

using verify::Check;
using verify::CheckStatus;

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

std::string report_envelope(const verify::VerifyReport& r) {
  nlohmann::ordered_json j;
  j["ok"] = !r.failed();
  j["report"] = verify::report_json(r);
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

std::string render_report(const verify::VerifyReport& r, bool color, bool verbose) {
  const std::string_view text = r.overall == "pass"   ? "verification passed"
                                : r.overall == "warn" ? "verification passed with warnings"
                                                      : "verification failed";
  std::string out = paint_header(text, r.overall, color) + "\n\n";
  for (const auto& c : r.checks) out += render_check(c, color);
  if (verbose && r.has_coverage) out += "\n  " + coverage_line(r.rules_evaluated, r.gated_off) + "\n";
  return out;
}

}  // namespace bp::cli
