#include "train_refusals.hpp"

#include <string>

#include "device_option.hpp"

namespace nltrain::cli {

common::Status refuse_flags(const TrainOptions& o) {
  if (o.flags.config_file == "-" && o.data.path == "-") return common::Error::malformed(kOneStdin);
  if (o.metrics == "-" && o.receipts.path == "-") {
    return common::Error::invalid_argument("--metrics - and --receipts - cannot share standard output; send one to a file");
  }
  if (!o.resume.empty()) {
    const ConfigFlags& f = o.flags;
    // --vocab and --data-format may repeat the run's (plan_resumed_run checks them); nothing may change the model.
    if (!f.rule.empty() || !f.config_file.empty() || f.schedule || f.levels || f.d || f.heads || f.seq_len || f.window || f.steps ||
        f.warmup || f.seed || f.lr || o.checkpoint_every || !o.from.empty()) {
      return common::Error::invalid_argument(
          "--resume continues the run as it was planned; model, optimizer, --steps, --checkpoint-every and --from flags cannot change it");
    }
  }
  if (o.trace_out == "-") return common::Error::invalid_argument("--trace-out: a trace is a file (renamed into place when complete), not '-'");
  if (o.threads && *o.threads == 0) return common::Error::invalid_argument("--threads: must be at least 1");
  if (o.memory_budget && !receipt_device(o.device).empty()) {
    // The budget spills the rules' own caches (the tape's context); a kernel pair keeps its packed
    // cache among the block's saved values, which the budget does not see: it would not hold.
    return common::Error::invalid_argument("--memory-budget spills nl's own caches; with --device " + o.device +
                                           " libgpu's kernel pairs keep theirs in memory (train on --device cpu)");
  }
  if (o.fp64 && o.memory_budget) {
    return common::Error::invalid_argument("--memory-budget spills the tape's caches, and an --fp64 run has no tape (hand-written backward)");
  }
  return {};
}

common::Status refuse_batch(const TrainOptions& o, std::size_t batch) {
  if (!o.resume.empty() && o.batch && *o.batch != batch) {
    return common::Error::invalid_argument("--batch: the run in " + o.resume + " trains " + std::to_string(batch) +
                                           " sequences per step; --resume cannot change it");
  }
  if (batch > 1 && !o.receipts.path.empty()) {
    return common::Error::invalid_argument("--receipts: bp verify nltrain audits one sequence per step; a run with --batch " +
                                           std::to_string(batch) + " writes no step receipts");
  }
  return {};
}

common::Status refuse_stop_at(const TrainOptions& o, std::uint64_t steps, std::uint64_t step) {
  if (o.stop_at && *o.stop_at > steps) {
    return common::Error::invalid_argument("--stop-at: " + std::to_string(*o.stop_at) + " is beyond --steps " + std::to_string(steps));
  }
  if (o.stop_at && *o.stop_at <= step) {
    return common::Error::invalid_argument("--stop-at: " + std::to_string(*o.stop_at) + " is not after the checkpoint's step " +
                                           std::to_string(step));
  }
  return {};
}

common::Status refuse_precision(const TrainOptions& o, bool fp64) {
  if (o.resume.empty() || o.fp64 == fp64) return {};
  return common::Error::invalid_argument(fp64 ? "--resume: the run in " + o.resume + " trains in fp64; continue it with --fp64"
                                              : "--fp64: the run in " + o.resume + " trains in fp32; --resume cannot change its precision");
}

}  // namespace nltrain::cli
