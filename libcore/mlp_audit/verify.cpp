#include "mlp_audit/verify.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "common/sha256.hpp"
#include "mlp_audit/entry_bound.hpp"
#include "mlp_audit/jax_update.hpp"
#include "mlp_audit/lr_schedule.hpp"
#include "mlp_audit/receipt.hpp"
#include "mlp_audit/step.hpp"
#include "nl_audit/tensor_compare.hpp"

namespace mlp_audit {
namespace {

std::vector<float> values(const nl_audit::TensorEntry& e) { return *nl_audit::f32_values(e); }  // the reader checked them
// The same values where the entry holds them (the reader checked their count), for comparisons
// that only read them: no copy of megabytes per receipt.
std::span<const float> view(const nl_audit::TensorEntry& e) {
  return {reinterpret_cast<const float*>(e.bytes->data()), e.bytes->size() / sizeof(float)};
}

Params values(const std::vector<nl_audit::TensorEntry>& es, std::size_t from, std::size_t count) {
  Params out;
  for (std::size_t i = from; i < from + count; ++i) out.push_back(values(es[i]));
  return out;
}

}  // namespace

void StreamVerifier::fail(Failure f) {
  ++failure_count_;
  ++tally_[f.rule].failed;
  if (failures_.size() < kMaxFailuresKept) failures_.push_back(std::move(f));
}

common::Status StreamVerifier::add(std::string_view line, std::int64_t line_no) {
  auto read = read_receipt(line, file_, line_no);
  if (!read.ok()) return read.error();
  Receipt& r = *read;
  const Model& m = r.model;
  // A receipt without `before` continues the previous one: its state before the step is that
  // receipt's after (already held to rule 5), so there must be one.
  if (r.before.empty() && receipts_ == 0) {
    return common::Error::malformed("missing: receipt " + std::to_string(r.index) +
                                        " continues the previous receipt (its state before the step is that one's after), which is "
                                        "not in the stream; verify from the run's first receipt, or from the first of the file its "
                                        "writer started",
                                    {file_, line_no, "/before"});
  }
  // The parameters and optimizer state before the step: the receipt's, or the previous one's
  // after. Where the previous receipt is of another model (rule 2 fails) there is none to use.
  const bool known = !r.before.empty() || r.model_text == prev_model_;
  const std::vector<nl_audit::TensorEntry>& before = r.before.empty() ? prev_after_ : r.before;
  auto failure = [&](unsigned rule, std::string tensor, std::string message) {
    Failure f;
    f.rule = rule, f.line = line_no, f.step = r.n, f.tensor = std::move(tensor), f.message = std::move(message);
    return f;
  };
  // Entry by entry against the recomputation: the first entry outside its bound fails `rule`.
  auto compare = [&](unsigned rule, const std::string& name, std::span<const float> stored, const std::vector<T32>& ref) {
    ++tally_[rule].checked;
    const EntryScan scan = first_outside_bound(stored, ref);
    normwise_ += scan.normwise;
    if (!scan.outside) return;
    const std::size_t i = *scan.outside;
    Failure f = failure(rule, name, name + " is outside its fp64 bound");
    f.index = i, f.stored = nl_audit::exact_text(stored[i]), f.recomputed = nl_audit::exact_text(ref[i].v);
    f.bound = nl_audit::exact_text(scan.bound);
    fail(std::move(f));
  };

  // The previous receipt's lr and last_epoch, where this one continues its run (same model).
  const bool chained = receipts_ != 0 && r.model_text == prev_model_;
  const double prev_lr = prev_lr_;
  const std::optional<std::uint64_t> prev_epoch = prev_epoch_;

  // 1 chain, 2 continuity: against the previous line of the stream.
  if (receipts_ == 0) {
    first_index_ = r.index;
  } else {
    ++tally_[1].checked;
    if (r.index != prev_index_ + 1 || r.previous_sha256 != prev_sha256_) {
      fail(failure(1, "", "does not follow the previous receipt (index " + std::to_string(r.index) + " after " +
                              std::to_string(prev_index_) + ", or previous_sha256 is not the previous line's SHA-256)"));
    }
    ++tally_[2].checked;
    if (r.model_text != prev_model_) fail(failure(2, "", "the model differs from the previous receipt's"));
    else if (r.n != prev_n_ + 1 || r.optimizer_step != prev_opt_step_ + 1) {
      fail(failure(2, "", "step " + std::to_string(r.n) + " / optimizer_step " + std::to_string(r.optimizer_step) +
                              " does not follow step " + std::to_string(prev_n_) + " / " + std::to_string(prev_opt_step_)));
    } else {
      for (std::size_t i = 0; i < r.before.size(); ++i) {
        if (r.before[i].sha256 == prev_after_[i].sha256) continue;
        fail(failure(2, r.before[i].name, r.before[i].name + " before this step is not the previous step's after"));
        break;
      }
    }
  }
  ++receipts_;
  prev_sha256_ = common::sha256_hex(line);
  prev_index_ = r.index, prev_n_ = r.n, prev_opt_step_ = r.optimizer_step, prev_model_ = r.model_text;
  prev_lr_ = r.lr, prev_epoch_ = r.last_epoch;

  // 6 lr: the optimizer's, or its scheduler's at the step's last_epoch, chained from the previous
  // receipt's lr (torch computes each epoch's lr from the one before) or replayed from epoch 0.
  ++tally_[6].checked;
  std::optional<T32> scheduled;  // a jax schedule's step size, which rule 5 then uses
  if (m.jax_schedule) {
    scheduled = jax_schedule_lr(*m.jax_schedule, r.optimizer_step - 1);
    const double bound = tracked_tolerance(scheduled->e);
    if (!(std::abs(r.lr - scheduled->v) <= bound)) {
      Failure f = failure(6, "lr", "the step's learning rate is not the " + jax_schedule_name(m.jax_schedule->kind) +
                                       " schedule's at i = " + std::to_string(r.optimizer_step - 1));
      f.stored = nl_audit::exact_text(r.lr), f.recomputed = nl_audit::exact_text(scheduled->v), f.bound = nl_audit::exact_text(bound);
      fail(std::move(f));
    }
  } else if (!m.scheduler) {
    if (r.lr != m.optimizer.lr) {
      Failure f = failure(6, "lr", "the step's learning rate is not the optimizer's (a scheduler the writer was not given?)");
      f.stored = nl_audit::exact_text(r.lr), f.recomputed = nl_audit::exact_text(m.optimizer.lr), f.bound = "0";
      fail(std::move(f));
    }
  } else if (const std::uint64_t e = *r.last_epoch; chained && e != *prev_epoch && e != *prev_epoch + 1) {
    Failure f = failure(6, "last_epoch", "the scheduler's last_epoch " + std::to_string(e) + " does not follow the previous step's " +
                                             std::to_string(*prev_epoch) + " (it steps at most once between two optimizer steps)");
    f.stored = std::to_string(e), f.recomputed = std::to_string(*prev_epoch + 1), f.bound = "1";
    fail(std::move(f));
  } else {
    const Scheduler& s = *m.scheduler;
    const ScheduledLr want = !chained ? replay_lr(s, m.optimizer.lr, e)
                             : e == *prev_epoch ? ScheduledLr{prev_lr, 0}
                                                : next_lr(s, m.optimizer.lr, {prev_lr, 0}, e);
    if (!(std::abs(r.lr - want.lr) <= want.bound)) {
      Failure f = failure(6, "lr", "the step's learning rate is not the " + scheduler_name(s.kind) + " scheduler's at last_epoch " +
                                       std::to_string(e) + (chained ? " after the previous step's" : " (replayed from epoch 0)"));
      f.stored = nl_audit::exact_text(r.lr), f.recomputed = nl_audit::exact_text(want.lr), f.bound = nl_audit::exact_text(want.bound);
      fail(std::move(f));
    }
  }

  if (!known) {  // rules 3, 4, 5 and 7 need the state before the step
    prev_after_ = std::move(r.after);
    return {};
  }

  // 3 loss, 4 gradient
  const std::size_t np = parameter_count(m);
  const Params params = values(before, 0, np);
  const std::vector<float> x = values(r.input), target = values(r.target);
  std::vector<std::vector<float>> masks;
  for (const nl_audit::TensorEntry& e : r.masks) masks.push_back(values(e));
  const Backprop bp = forward_backward(m, params, x, target, r.batch, masks);
  kinks_ += bp.kinks;
  const float loss[1] = {r.loss};
  compare(3, "loss", loss, {bp.loss});
  for (std::size_t p = 0; p < np; ++p) compare(4, "grad." + r.gradients[p].name, view(r.gradients[p]), bp.gradients[p]);

  // 5 update, from the stored gradients
  const std::vector<std::string> names = state_names(m.optimizer);
  std::vector<Params> state;
  for (std::size_t s = 0; s < names.size(); ++s) state.push_back(values(before, np + s * np, np));
  // 7 clip: the norm clip_grad_norm_ returned; the update starts from the gradients it left
  const Params gradients = values(r.gradients, 0, np);
  std::vector<std::vector<T32>> used;
  if (r.clip) {
    Clip c = is_jax(m.optimizer.kind) ? jax_clip_grads(gradients, r.clip->max_norm) : clip_grad_norm(gradients, r.clip->max_norm);
    const float norm[1] = {r.clip->total_norm};
    compare(7, "total_norm", norm, {c.total_norm});
    used = std::move(c.gradients);
  } else {
    used = exact_all(gradients);
  }
  const Update u = is_jax(m.optimizer.kind) ? jax_optimizer_update(m.optimizer, scheduled ? *scheduled : T32(r.lr), r.optimizer_step, params, used, state)
                                              : optimizer_update(m.optimizer, r.lr, r.optimizer_step, params, used, state);
  for (std::size_t p = 0; p < np; ++p) compare(5, r.after[p].name, view(r.after[p]), u.params[p]);
  for (std::size_t s = 0; s < names.size(); ++s)
    for (std::size_t p = 0; p < np; ++p) {
      const nl_audit::TensorEntry& e = r.after[np + s * np + p];
      compare(5, e.name, view(e), u.state[s][p]);
    }
  prev_after_ = std::move(r.after);  // what the next receipt's before is (or must be, by digest)
  return {};
}

}  // namespace mlp_audit
