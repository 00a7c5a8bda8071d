#pragma once
// The hybrid tolerance every rule applies, |a - b| <= max(atol, rtol * max(|a|, |b|)), and the
// verifier-owned ceilings a receipt's own tolerance is clamped to before any rule runs: a receipt
// may tighten the check that judges it, never loosen it.
#include <optional>

#include <nlohmann/json.hpp>

#include "reconcile/read_json.hpp"

namespace reconcile {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// Engine-authored receipts.
inline constexpr Tolerance kNumericCeiling{1e-8, 1e-6};
// Observer receipts (fixture_status.authoring_state == "external_imported"): float32-grade.
inline constexpr Tolerance kObserverNumericCeiling{1e-5, 1e-3};
// Rule 14 on an engine-authored record (Options::derive_every_record): the engine's numbers
// printed at 9 significant digits and recomputed from printed parameters.
inline constexpr Tolerance kEngineDerivationCeiling{1e-10, 1e-7};
// Rule 14's differential tolerance (attestor.differential_tolerance) is clamped to this.
inline constexpr Tolerance kDifferentialCeiling{1e-5, 1e-3};

struct ToleranceCheck {
  bool ok = false;
  double delta = 0;    // |a - b|; NaN when an operand is non-finite
  double applied = 0;  // max(atol, rtol * max(|a|, |b|)); 0 when non-finite
  bool finite = false;
};

[[nodiscard]] ToleranceCheck check_tolerance(double recomputed, double stored, Tolerance t) noexcept;
// The same with the relative part taken of max(|a|, |b|, terms): a sum judged against the size of
// its terms (Options::term_scaled_sums). Terms printed at 9 significant digits each carry up to
// half a unit of their 9th digit, so a sum whose terms cancel (|sum| much less than the sum of
// |term|) differs from its printed value by more than rtol of the sum, though nothing is wrong.
[[nodiscard]] ToleranceCheck check_tolerance(double recomputed, double stored, Tolerance t, double terms) noexcept;

// A tolerance policy as receipts spell it: a finite non-negative number (v0.1/v0.2, meaning
// {atol: n, rtol: 0}) or an object {atol, rtol} of finite non-negative numbers. Anything else: nullopt.
[[nodiscard]] std::optional<Tolerance> read_tolerance_policy(const Json& policy) noexcept;

struct ClampedTolerance {
  Tolerance effective;    // each axis clamped into [0, ceiling]
  bool exceeded = false;  // some axis was above the ceiling
  bool negative = false;  // some axis was below zero
};

[[nodiscard]] ClampedTolerance clamp_tolerance(Tolerance declared, Tolerance ceiling) noexcept;

// The ceiling for a receipt's numeric_policy.tolerance: observer ceiling when its
// fixture_status.authoring_state is "external_imported", the engine ceiling otherwise.
[[nodiscard]] Tolerance numeric_ceiling_for(const Json& receipt) noexcept;

}  // namespace reconcile
