#pragma once
// The step-size schedules of jax.example_libraries.optimizers as bp verify tensor re-derives them
// (rule 6) for a receipt of trainer "jax": exponential_decay, inverse_time_decay (staircase or
// not), polynomial_decay and piecewise_constant, evaluated at the i that opt_update(i, ...) was
// given (optimizer_step - 1).
//
// JAX evaluates a schedule one of two ways, and a receipt cannot say which: with a Python int i
// (opt_update called outside jit) the arithmetic on Python numbers is binary64 and the result is
// rounded to fp32 where it scales the gradient; with a traced or array i (under jit) every
// operation is fp32, pow and floor included. The value returned here is one fp32-tracked
// evaluation of the schedule's operations in their order: its bound holds both, because each
// operation's allowance (fp32's unit roundoff plus binary64's) covers either rounding, pow's
// allowance covers glibc's pow and XLA's (measured on jaxlib 0.10.2's CPU backend over 4 million
// inputs in (0.01, 1) x (0, 2000): at most 1.01 ulp against 4 allowed), a floor whose operand may
// lie on either side of an integer takes both, and the binary64 path's final rounding is added.
#include <cstdint>
#include <string>
#include <vector>

#include "common/tracked.hpp"

namespace mlp_audit {

using T32 = common::Tracked<float>;

enum class JaxScheduleKind : unsigned char { exponential_decay, inverse_time_decay, polynomial_decay, piecewise_constant };

struct JaxSchedule {
  JaxScheduleKind kind = JaxScheduleKind::exponential_decay;
  double step_size = 0;                    // exponential, inverse_time, polynomial
  double decay_steps = 1, decay_rate = 0;  // decay_steps: all three; decay_rate: exponential, inverse_time
  bool staircase = false;                  // inverse_time
  double final_step_size = 0, power = 1;   // polynomial
  std::vector<float> boundaries, values;   // piecewise_constant: fp32 values, one more value than boundaries
};

// The largest i a schedule is evaluated at: below 2^24 an int32 step index converts to fp32
// exactly, so both evaluations see the same i.
inline constexpr std::uint64_t kMaxJaxScheduleStep = std::uint64_t{1} << 24;

[[nodiscard]] std::string jax_schedule_name(JaxScheduleKind k);

// The step size at i (i < kMaxJaxScheduleStep), as an fp32 value with the bound described above.
[[nodiscard]] T32 jax_schedule_lr(const JaxSchedule& s, std::uint64_t i);

}  // namespace mlp_audit
