// torch's chainable get_lr() as lr_schedule.cpp repeats it, against the closed forms torch
// documents (lr_scheduler.py's _get_closed_form_lr): the two agree exactly where every operation
// is a correctly rounded multiply, and within a few ulps along a cosine. The live test
// (tests/cli/bp/live_mlp_schedule_test.py) holds the same code to real torch.
#include "mlp_audit/lr_schedule.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

namespace {

using namespace mlp_audit;

TEST_CASE("lr_schedule: StepLR and ExponentialLR leave epoch 0 alone and multiply by gamma, exactly") {
  Scheduler step{.kind = SchedulerKind::step, .step_size = 2, .gamma = 0.5};
  CHECK(replay_lr(step, 0.1, 0).lr == 0.1);
  CHECK(replay_lr(step, 0.1, 1).lr == 0.1);
  CHECK(replay_lr(step, 0.1, 2).lr == 0.1 * 0.5);
  CHECK(replay_lr(step, 0.1, 5).lr == 0.1 * 0.5 * 0.5);
  Scheduler expo{.kind = SchedulerKind::exponential, .gamma = 0.7};
  CHECK(replay_lr(expo, 0.1, 0).lr == 0.1);
  CHECK(replay_lr(expo, 0.1, 3).lr == 0.1 * 0.7 * 0.7 * 0.7);  // the chain's rounding, not 0.1 * 0.7^3
  CHECK(replay_lr(expo, 0.1, 3).bound == 0);
}

TEST_CASE("lr_schedule: MultiStepLR decays at a milestone, at epoch 0 too, and by gamma^2 at a repeated one") {
  Scheduler ms{.kind = SchedulerKind::multi_step, .milestones = {0, 2, 2}, .gamma = 0.3};
  CHECK(replay_lr(ms, 0.1, 0).lr == 0.1 * 0.3);
  CHECK(replay_lr(ms, 0.1, 1).lr == 0.1 * 0.3);
  const ScheduledLr at2 = replay_lr(ms, 0.1, 2);
  CHECK(std::abs(at2.lr - 0.1 * 0.3 * std::pow(0.3, 2.0)) <= at2.bound);
  CHECK(at2.bound > 0);  // pow may differ by an ulp between C libraries
  CHECK(at2.bound < 1e-15 * at2.lr);
}

TEST_CASE("lr_schedule: LinearLR starts at start_factor, reaches end_factor at total_iters, then stays") {
  Scheduler lin{.kind = SchedulerKind::linear, .start_factor = 0.25, .end_factor = 1, .total_iters = 3};
  CHECK(replay_lr(lin, 0.01, 0).lr == 0.01 * 0.25);
  const double at3 = replay_lr(lin, 0.01, 3).lr;
  CHECK(std::abs(at3 - 0.01) < 4 * 0x1p-52 * 0.01);  // the chain's product of ratios, not exactly 0.01
  CHECK(replay_lr(lin, 0.01, 7).lr == at3);
}

TEST_CASE("lr_schedule: CosineAnnealingLR follows the closed form through its trough and its restart branch") {
  Scheduler cos{.kind = SchedulerKind::cosine_annealing, .t_max = 3, .eta_min = 0.01};
  const double base = 0.1;
  for (std::uint64_t e = 0; e <= 12; ++e) {
    const ScheduledLr got = replay_lr(cos, base, e);
    const double closed = 0.01 + (base - 0.01) * (1 + std::cos(std::numbers::pi * static_cast<double>(e) / 3)) / 2;
    CHECK(std::abs(got.lr - closed) < 1e-15);
    CHECK(got.bound < 1e-15);
  }
  CHECK(replay_lr(cos, base, 3).lr == 0.01);  // 1 + cos(pi) is 0: the ratio is 0
  // Epoch 4 = T_max + 1 takes the restart branch (the ratio's denominator would be 0).
  const ScheduledLr at4 = next_lr(cos, base, {0.01, 0}, 4);
  CHECK(at4.lr == 0.01 + (base - 0.01) * (1 - std::cos(std::numbers::pi / 3)) / 2);
}

}  // namespace
