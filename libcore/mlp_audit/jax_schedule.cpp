#include "mlp_audit/jax_schedule.hpp"

#include <algorithm>
#include <cmath>

#include "mlp_audit/jax_power.hpp"

namespace mlp_audit {
namespace {

// jnp.floor(i / decay_steps), an integer each way JAX computes it: eager, the Python float
// quotient rounded to fp32 (jnp takes it weakly typed); under jit, fp32 i divided by fp32
// decay_steps, or multiplied by its fp32 reciprocal (XLA's rewrite of a division by a constant).
// Both values where they differ: a quotient near an integer can round onto either side.
T32 staircase_floor(std::uint64_t i, double decay_steps) {
  const auto fi = static_cast<float>(i), fc = static_cast<float>(decay_steps);
  const float candidates[] = {static_cast<float>(static_cast<double>(i) / decay_steps), fi / fc, fi * (1.0f / fc)};
  double lo = std::floor(candidates[0]), hi = lo;
  for (float q : candidates) lo = std::min(lo, std::floor(static_cast<double>(q))), hi = std::max(hi, std::floor(static_cast<double>(q)));
  return T32::exact((lo + hi) / 2, (hi - lo) / 2);
}

// x / c for a constant c: under jit XLA may compute it as x * (1 / c), the reciprocal rounded to
// fp32 (seen: polynomial_decay(0.1, 6, 0.01) at i = 6 gives 1 - 6 * (1/6) = -2.98e-8, not 0).
T32 by_constant(const T32& x, const T32& c) { return hull(x / c, x * (T32(1) / c)); }

// base^power, polynomial_decay's (1 - step / decay_steps) ** power. An integral power may have
// been lax.integer_pow's (a Python int) or lax.pow's (a float): both. Where the base's interval
// reaches 0 or below (jit's reciprocal above), pow is bounded by its values at the interval's
// ends: monotone for an odd power, even for an even one; a fractional power of a negative base is
// NaN in JAX, which no finite receipt holds, so only the part at or above 0 counts there.
T32 decay_power(const T32& base, double power) {
  if (power == 0) return T32(1);  // jnp: x ** 0 is 1, 0 ** 0 included
  const bool integral = power == std::floor(power) && power <= 64;
  if (base.v - base.e > 0) {
    const T32 p = pow(base, T32(power));
    return integral ? hull(p, integer_pow(base, static_cast<std::uint64_t>(power))) : p;
  }
  const double lo = integral ? base.v - base.e : std::max(0.0, base.v - base.e), hi = std::max(lo, base.v + base.e);
  const double a = std::pow(lo, power), b = std::pow(hi, power);
  double bottom = std::min(a, b), top = std::max(a, b);
  if (lo < 0 && hi > 0 && std::fmod(power, 2) == 0) bottom = 0;  // an even power's minimum inside
  // pow's own error (or integer_pow's roundings, one per multiplication), at the larger magnitude
  const double own = common::tracked_detail::kLibmUlps * T32::u * std::max(std::abs(a), std::abs(b)) * (integral ? power : 1) + T32::tiny;
  return T32::exact((bottom + top) / 2, (top - bottom) / 2 + own);
}

}  // namespace

std::string jax_schedule_name(JaxScheduleKind k) {
  switch (k) {
    case JaxScheduleKind::exponential_decay: return "exponential_decay";
    case JaxScheduleKind::inverse_time_decay: return "inverse_time_decay";
    case JaxScheduleKind::polynomial_decay: return "polynomial_decay";
    case JaxScheduleKind::piecewise_constant: return "piecewise_constant";
  }
  return "?";
}

T32 jax_schedule_lr(const JaxSchedule& s, std::uint64_t step) {
  const T32 i(static_cast<double>(step)), steps(s.decay_steps), rate(s.decay_rate);
  // The binary64 evaluation's result is rounded to fp32 once more where it scales the update.
  auto python_float = [](const T32& r) { return T32::rounded(r.v, r.e); };
  switch (s.kind) {
    case JaxScheduleKind::exponential_decay:  // step_size * decay_rate ** (i / decay_steps)
      return python_float(T32(s.step_size) * pow(rate, by_constant(i, steps)));
    case JaxScheduleKind::inverse_time_decay:
      // staircase: step_size / (1 + decay_rate * floor(i / decay_steps)), floor in fp32 (jnp)
      if (s.staircase) return T32(s.step_size) / (T32(1) + rate * staircase_floor(step, s.decay_steps));
      return python_float(T32(s.step_size) / (T32(1) + by_constant(rate * i, steps)));
    case JaxScheduleKind::polynomial_decay: {
      // step_num = min(i, decay_steps); (1 - step_num / decay_steps) ** power
      //   * (step_size - final_step_size) + final_step_size, the difference in Python floats
      const T32 step_num = static_cast<double>(step) >= s.decay_steps ? steps : i;
      const T32 mult = decay_power(T32(1) - by_constant(step_num, steps), s.power);
      return mult * T32(s.step_size - s.final_step_size) + T32(s.final_step_size);
    }
    case JaxScheduleKind::piecewise_constant: {  // values[sum(i > boundaries)]: exact
      std::size_t k = 0;
      for (float b : s.boundaries) k += static_cast<double>(step) > static_cast<double>(b) ? 1 : 0;
      return T32(s.values[k]);
    }
  }
  return T32(0);
}

}  // namespace mlp_audit
