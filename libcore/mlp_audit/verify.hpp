#pragma once
// bp verify tensor: a stream of `mlp` step receipts checked one line at a time, with memory flat
// in the number of steps (only the previous receipt's digests are kept). Rules:
//   1 chain       index and previous_sha256 link each receipt to the line before it
//   2 continuity  the state before a step is the previous step's state after, bit for bit; the
//                 model is the same; step and optimizer_step count up by one. A receipt without
//                 `before` takes the previous receipt's after as its state before the step; read
//                 with no receipt before it, it is malformed (/before: missing); after one of
//                 another model (this rule fails), rules 3, 4, 5 and 7 skip it.
//   3 loss        the stored loss against the fp64 recomputation within its per-entry bound
//   4 gradient    every gradient entry against the fp64 backward within its bound
//   5 update      every parameter and optimizer-state entry after the step, recomputed from the
//                 state before and the stored gradients, within its bound
//   6 lr          the step's learning rate is the optimizer's, or with a scheduler (lr_schedule.hpp)
//                 torch's chainable get_lr() at the step's last_epoch from the previous receipt's lr
//                 (last_epoch equal: the same lr; one more: one get_lr(); anything else fails), and
//                 on a stream's first receipt replayed from epoch 0, within the bound of libm's cos
//                 and pow (0 where no cos or pow is involved); with a jax schedule, the schedule's
//                 step size at i = optimizer_step - 1 within its bound (jax_schedule.hpp), which the
//                 update (rule 5) then uses
//   7 clip        where the step ran clip_grad_norm_ (jax: clip_grads), the total norm it returned;
//                 the update then starts from the clipped gradients (carried with their bounds)
// A per-entry tolerance is the Tracked bound e * (1 + 2^-30) + 2^-149. Where a bound overflowed,
// the entry is held to the stated norm-wise tolerance 2^-10 (|ref| + max |ref| of its tensor),
// and counted (normwise_entries).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "nl_audit/tensor_entry.hpp"

namespace mlp_audit {

struct RuleInfo {
  unsigned number;
  std::string_view name;
};
inline constexpr std::array<RuleInfo, 7> kRules{
    {{1, "chain"}, {2, "continuity"}, {3, "loss"}, {4, "gradient"}, {5, "update"}, {6, "lr"}, {7, "clip"}}};

struct Failure {
  unsigned rule = 0;
  std::int64_t line = 0;
  std::uint64_t step = 0;
  std::string tensor;
  std::optional<std::size_t> index;
  std::string stored, recomputed, bound;  // exact decimals
  std::string message;
};

struct RuleTally {
  std::uint64_t checked = 0, failed = 0;
};

inline constexpr std::size_t kMaxFailuresKept = 50;

class StreamVerifier {
 public:
  explicit StreamVerifier(std::string file) : file_(std::move(file)) {}
  // One line (without its newline). A malformed receipt is an error (the stream stops there);
  // a rule that fails is data (failures()).
  [[nodiscard]] common::Status add(std::string_view line, std::int64_t line_no);

  [[nodiscard]] std::uint64_t receipts() const { return receipts_; }
  [[nodiscard]] std::uint64_t first_index() const { return first_index_; }
  [[nodiscard]] std::uint64_t kinks() const { return kinks_; }
  [[nodiscard]] std::uint64_t normwise_entries() const { return normwise_; }
  [[nodiscard]] std::uint64_t failure_count() const { return failure_count_; }
  [[nodiscard]] const std::vector<Failure>& failures() const { return failures_; }
  [[nodiscard]] const std::array<RuleTally, 8>& tally() const { return tally_; }

 private:
  void fail(Failure f);

  std::string file_;
  std::uint64_t receipts_ = 0, first_index_ = 0, kinks_ = 0, normwise_ = 0, failure_count_ = 0;
  std::vector<Failure> failures_;
  std::array<RuleTally, 8> tally_{};
  // The previous receipt: what the next one must continue.
  std::optional<std::string> prev_sha256_;
  std::uint64_t prev_index_ = 0, prev_n_ = 0, prev_opt_step_ = 0;
  std::string prev_model_;
  std::vector<nl_audit::TensorEntry> prev_after_;  // the next receipt's before (bytes and digests)
  double prev_lr_ = 0;
  std::optional<std::uint64_t> prev_epoch_;
};

}  // namespace mlp_audit
