#include "verify/report.hpp"

namespace verify {
namespace {

std::string headline(const Check& c) { return c.name + (c.message ? ": " + *c.message : ""); }

}  // namespace

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

std::string first_problem(const VerifyReport& r) {
  for (const auto& c : r.checks) {
    if (c.status == CheckStatus::fail) return headline(c);
  }
  for (const auto& c : r.checks) {
    if (c.status != CheckStatus::pass) return headline(c);
  }
  return {};
}

}  // namespace verify
