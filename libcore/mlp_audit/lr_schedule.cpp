// next_lr, replay_lr (lr_schedule.hpp): torch 1.13's lr_scheduler.py get_lr() methods, one
// expression each, in Python's evaluation order (left to right; an int operand becomes a double).
#include "mlp_audit/lr_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace mlp_audit {
namespace lr_schedule_detail {  // named: the unity build shares one anonymous namespace

constexpr double kUlp = 0x1p-52;  // one ulp of a value in [1, 2): the relative slack of one libm call

// Python's `a % b` for a positive b: the result has b's sign.
std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return ((a % b) + b) % b; }

// CosineAnnealingLR.get_lr() past epoch 0.
ScheduledLr cosine(const Scheduler& s, double base, ScheduledLr g, std::uint64_t epoch) {
  const double pi = std::numbers::pi, t = static_cast<double>(s.t_max), e = static_cast<double>(epoch);
  const auto t_max = static_cast<std::int64_t>(s.t_max);
  if (floor_mod(static_cast<std::int64_t>(epoch) - 1 - t_max, 2 * t_max) == 0) {
    // group['lr'] + (base_lr - eta_min) * (1 - cos(pi / T_max)) / 2
    const double c = 1 - std::cos(pi / t);
    const double term = (base - s.eta_min) * c / 2, lr = g.lr + term;
    // cos within 1 ulp (at most 2^-53 absolute on [-1, 1]); after a different cos, each rounding
    // (the subtraction, the product, the sum; /2 is exact) may land one ulp apart.
    const double d_c = 0x1p-53 + std::abs(c) * kUlp;
    return {lr, g.bound + std::abs(base - s.eta_min) * d_c / 2 + std::abs(term) * kUlp + std::abs(lr) * kUlp};
  }
  // (1 + cos(pi * e / T_max)) / (1 + cos(pi * (e - 1) / T_max)) * (group['lr'] - eta_min) + eta_min
  const double a = 1 + std::cos(pi * e / t), b = 1 + std::cos(pi * (e - 1) / t);
  const double ratio = a / b;
  const double product = ratio * (g.lr - s.eta_min), lr = product + s.eta_min;
  // A 1-ulp cos moves a or b by at most 2^-52 (with the add's rounding): the ratio by
  // (2^-52 + |ratio| 2^-52) / b, plus its own rounding; then the product's and the sum's
  // roundings may each land one ulp apart. The previous value's error scales by the ratio.
  const double d_ratio = (kUlp + std::abs(ratio) * kUlp) / b + std::abs(ratio) * kUlp;
  return {lr, g.bound * std::abs(ratio) + d_ratio * std::abs(g.lr - s.eta_min) + std::abs(product) * kUlp + std::abs(lr) * kUlp};
}

}  // namespace lr_schedule_detail

std::string scheduler_name(SchedulerKind k) {
  switch (k) {
    case SchedulerKind::step: return "step";
    case SchedulerKind::multi_step: return "multi_step";
    case SchedulerKind::exponential: return "exponential";
    case SchedulerKind::cosine_annealing: return "cosine_annealing";
    case SchedulerKind::linear: return "linear";
  }
  return "step";
}

ScheduledLr next_lr(const Scheduler& s, double base, ScheduledLr g, std::uint64_t epoch) {
  using lr_schedule_detail::kUlp;
  switch (s.kind) {
    case SchedulerKind::step:  // group['lr'] * gamma where last_epoch % step_size == 0, but not at 0
      if (epoch == 0 || epoch % s.step_size != 0) return g;
      return {g.lr * s.gamma, g.bound * std::abs(s.gamma)};
    case SchedulerKind::multi_step: {  // group['lr'] * gamma ** (times last_epoch is a milestone), at 0 too
      const auto [lo, hi] = std::equal_range(s.milestones.begin(), s.milestones.end(), epoch);
      const auto times = hi - lo;
      if (times == 0) return g;
      if (times == 1) return {g.lr * s.gamma, g.bound * std::abs(s.gamma)};  // pow(x, 1) is x
      // pow within 1 ulp; the product's rounding may then land one ulp apart.
      const double f = std::pow(s.gamma, static_cast<double>(times));
      return {g.lr * f, g.bound * std::abs(f) + std::abs(g.lr * f) * 2 * kUlp};
    }
    case SchedulerKind::exponential:  // group['lr'] * gamma, but not at 0
      if (epoch == 0) return g;
      return {g.lr * s.gamma, g.bound * std::abs(s.gamma)};
    case SchedulerKind::cosine_annealing:
      if (epoch == 0) return g;
      return lr_schedule_detail::cosine(s, base, g, epoch);
    case SchedulerKind::linear: {
      if (epoch == 0) return {g.lr * s.start_factor, g.bound * std::abs(s.start_factor)};
      if (epoch > s.total_iters) return g;
      // group['lr'] * (1. + (end - start) / (total_iters * start + (last_epoch - 1) * (end - start)))
      const double d = s.end_factor - s.start_factor;
      const double f = 1. + d / (static_cast<double>(s.total_iters) * s.start_factor + static_cast<double>(epoch - 1) * d);
      return {g.lr * f, g.bound * std::abs(f)};
    }
  }
  return g;
}

ScheduledLr replay_lr(const Scheduler& s, double base, std::uint64_t epoch) {
  ScheduledLr g{base, 0};
  for (std::uint64_t e = 0; e <= epoch; ++e) g = next_lr(s, base, g, e);
  return g;
}

}  // namespace mlp_audit
