#include "train_refusals.hpp"

#include <string>

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

}  // namespace nltrain::cli
