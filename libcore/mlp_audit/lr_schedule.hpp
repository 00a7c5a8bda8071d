#pragma once
// PyTorch learning-rate schedulers as bp verify tensor re-derives them (rule 6): torch 1.13's
// chainable get_lr(), which computes each epoch's lr from the group's lr at the epoch before, in
// Python floats (binary64). lr_schedule.cpp repeats its operations in the same order, so the
// values agree bit for bit wherever the C library's cos and pow agree with Python's; the bound
// that comes with each value covers a 1-ulp difference in each cos or pow call (the only
// operations that are not correctly rounded), carried through the chain.
#include <cstdint>
#include <string>
#include <vector>

namespace mlp_audit {

enum class SchedulerKind : unsigned char { step, multi_step, exponential, cosine_annealing, linear };

// torch.optim.lr_scheduler.StepLR(step_size, gamma), MultiStepLR(milestones, gamma),
// ExponentialLR(gamma), CosineAnnealingLR(T_max, eta_min), LinearLR(start_factor, end_factor,
// total_iters); each built with last_epoch=-1 (its construction is epoch 0).
struct Scheduler {
  SchedulerKind kind = SchedulerKind::step;
  std::uint64_t step_size = 1;               // step
  std::vector<std::uint64_t> milestones;     // multi_step: sorted, repeats allowed (torch counts them)
  double gamma = 0.1;                        // step, multi_step, exponential
  std::uint64_t t_max = 1;                   // cosine_annealing
  double eta_min = 0;                        // cosine_annealing
  double start_factor = 1.0 / 3, end_factor = 1;  // linear
  std::uint64_t total_iters = 5;                  // linear
};

// The largest last_epoch a receipt may carry: the first receipt of a stream replays the schedule
// from epoch 0, one get_lr() per epoch.
inline constexpr std::uint64_t kMaxLastEpoch = std::uint64_t{1} << 27;

[[nodiscard]] std::string scheduler_name(SchedulerKind k);

struct ScheduledLr {
  double lr = 0;
  double bound = 0;  // |torch's value - lr| at most this (0: the operations are correctly rounded)
};

// torch's get_lr() at `epoch`, from the group's lr at the epoch before (`previous`; at epoch 0
// the group's lr when the scheduler was built, which is `base`, the optimizer's lr).
[[nodiscard]] ScheduledLr next_lr(const Scheduler& s, double base, ScheduledLr previous, std::uint64_t epoch);
// The lr at `epoch` of a scheduler stepped once per epoch from its construction.
[[nodiscard]] ScheduledLr replay_lr(const Scheduler& s, double base, std::uint64_t epoch);

}  // namespace mlp_audit
