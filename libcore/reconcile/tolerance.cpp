#include "reconcile/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "reconcile/json_access.hpp"

namespace reconcile {

ToleranceCheck check_tolerance(double recomputed, double stored, Tolerance t) noexcept {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(recomputed) || !std::isfinite(stored)) return {false, kNaN, 0, false};
  const double delta = std::fabs(recomputed - stored);
  if (!std::isfinite(delta)) return {false, delta, 0, false};
  const double applied = std::max(t.atol, t.rtol * std::max(std::fabs(recomputed), std::fabs(stored)));
  return {delta <= applied, delta, applied, true};
}

ToleranceCheck check_tolerance(double recomputed, double stored, Tolerance t, double terms) noexcept {
  ToleranceCheck c = check_tolerance(recomputed, stored, t);
  if (!c.finite || c.ok || !std::isfinite(terms)) return c;
  c.applied = std::max(c.applied, t.rtol * terms);
  c.ok = c.delta <= c.applied;
  return c;
}

std::optional<Tolerance> read_tolerance_policy(const Json& policy) noexcept {
  auto usable = [](std::optional<double> v) { return v && std::isfinite(*v) && *v >= 0; };
  if (auto scalar = as_number(policy)) {
    if (!usable(scalar)) return std::nullopt;
    return Tolerance{*scalar, 0};
  }
  if (!policy.is_object()) return std::nullopt;
  const auto atol = number_member(policy, "atol");
  const auto rtol = number_member(policy, "rtol");
  if (!usable(atol) || !usable(rtol)) return std::nullopt;
  return Tolerance{*atol, *rtol};
}

ClampedTolerance clamp_tolerance(Tolerance declared, Tolerance ceiling) noexcept {
  ClampedTolerance out;
  out.negative = declared.atol < 0 || declared.rtol < 0;
  out.exceeded = declared.atol > ceiling.atol || declared.rtol > ceiling.rtol;
  out.effective.atol = std::min(std::max(declared.atol, 0.0), ceiling.atol);
  out.effective.rtol = std::min(std::max(declared.rtol, 0.0), ceiling.rtol);
  return out;
}

Tolerance numeric_ceiling_for(const Json& receipt) noexcept {
  const auto* status = member(receipt, "fixture_status");
  const auto state = status ? string_member(*status, "authoring_state") : std::nullopt;
  return state && *state == "external_imported" ? kObserverNumericCeiling : kNumericCeiling;
}

}  // namespace reconcile
