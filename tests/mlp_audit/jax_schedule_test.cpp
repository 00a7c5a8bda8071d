// jax.example_libraries.optimizers' schedules as rule 6 re-derives them: the step sizes JAX 0.10.2
// computed on the CPU (tests/cli/bp/live_jax_schedule_test.py's schedules; eager: Python floats
// rounded to fp32 where they scale the update; jit: fp32, XLA dividing by a constant through its
// reciprocal) lie within jax_schedule_lr's bound, which stays within a few ulps of the value.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "mlp_audit/jax_schedule.hpp"

namespace jax_schedule_test {  // named: the unity build joins the test files

using namespace mlp_audit;

struct Seen {
  std::uint64_t i;
  double eager, jit;
};

void check_all(const JaxSchedule& s, const std::vector<Seen>& seen) {
  for (const Seen& x : seen) {
    const T32 lr = jax_schedule_lr(s, x.i);
    CAPTURE(x.i);
    CHECK(std::abs(x.eager - lr.v) <= lr.e);
    CHECK(std::abs(x.jit - lr.v) <= lr.e);
    // Tight enough to catch a moved lr: at most 16 fp32 ulps (2^-19 of the value).
    CHECK(lr.e <= std::abs(lr.v) * 0x1p-19 + 0x1p-140);
  }
}

TEST_CASE("mlp_audit/jax_schedule: exponential_decay and inverse_time_decay hold JAX's values, eager and jit") {
  JaxSchedule e{.kind = JaxScheduleKind::exponential_decay, .step_size = 0.05, .decay_steps = 3, .decay_rate = 0.5};
  check_all(e, {{0, 0x1.99999ap-5, 0x1.99999ap-5}, {1, 0x1.451988p-5, 0x1.451988p-5}, {5, 0x1.020826p-6, 0x1.020826p-6},
                {6, 0x1.99999ap-7, 0x1.99999ap-7}, {7, 0x1.451988p-7, 0x1.451986p-7}, {50, 0x1.020826p-21, 0x1.020816p-21}});
  JaxSchedule t{.kind = JaxScheduleKind::inverse_time_decay, .step_size = 0.1, .decay_steps = 3, .decay_rate = 0.7};
  check_all(t, {{0, 0x1.99999ap-4, 0x1.99999ap-4}, {1, 0x1.4c1bacp-4, 0x1.4c1baep-4}, {5, 0x1.7a17a2p-5, 0x1.7a17a0p-5},
                {6, 0x1.555556p-5, 0x1.555554p-5}, {7, 0x1.3716aep-5, 0x1.3716aep-5}, {50, 0x1.02b1dap-7, 0x1.02b1dap-7}});
  t.staircase = true;
  check_all(t, {{0, 0x1.99999ap-4, 0x1.99999ap-4}, {1, 0x1.99999ap-4, 0x1.99999ap-4}, {5, 0x1.e1e1e2p-5, 0x1.e1e1e2p-5},
                {6, 0x1.555554p-5, 0x1.555554p-5}, {7, 0x1.555554p-5, 0x1.555554p-5}, {50, 0x1.0c9716p-7, 0x1.0c9716p-7}});
}

TEST_CASE("mlp_audit/jax_schedule: polynomial_decay past decay_steps holds jit's 1 - i * (1/6) below 0") {
  const JaxSchedule p{.kind = JaxScheduleKind::polynomial_decay, .step_size = 0.1, .decay_steps = 6, .final_step_size = 0.01, .power = 1};
  check_all(p, {{0, 0x1.99999ap-4, 0x1.99999ap-4}, {1, 0x1.5c28f6p-4, 0x1.5c28f6p-4}, {5, 0x1.99999cp-6, 0x1.999998p-6},
                {6, 0x1.47ae14p-7, 0x1.47ae0ep-7}, {7, 0x1.47ae14p-7, 0x1.47ae0ep-7}, {50, 0x1.47ae14p-7, 0x1.47ae0ep-7}});
}

TEST_CASE("mlp_audit/jax_schedule: piecewise_constant is exact and a moved value is outside") {
  const JaxSchedule p{.kind = JaxScheduleKind::piecewise_constant, .boundaries = {2.0f, 5.5f}, .values = {0.1f, 0.03f, 0.01f}};
  check_all(p, {{0, 0x1.99999ap-4, 0x1.99999ap-4}, {2, 0x1.99999ap-4, 0x1.99999ap-4}, {3, 0x1.eb851ep-6, 0x1.eb851ep-6},
                {5, 0x1.eb851ep-6, 0x1.eb851ep-6}, {6, 0x1.47ae14p-7, 0x1.47ae14p-7}});
  const T32 lr = jax_schedule_lr(p, 6);
  CHECK(lr.e == 0);
  CHECK(jax_schedule_lr(p, 2).v == static_cast<double>(0.1f));  // i > 2 is false at 2
}

}  // namespace jax_schedule_test
