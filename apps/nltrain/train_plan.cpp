#include "train_plan.hpp"

#include <type_traits>
#include <utility>
#include <variant>

#include "nl/checkpoint.hpp"
#include "nl/mag_params.hpp"

namespace nltrain::cli {

common::Result<TrainPlan> plan_new_run(const ConfigFlags& flags, std::optional<std::uint64_t> checkpoint_every,
                                       std::uint64_t batch, const DataFlags& data, const std::string& out,
                                       const std::string& from, bool fp64) {
  nl::TokenFormat format = nl::TokenFormat::bytes;
  if (data.format) {
    auto f = parse_data_format(*data.format);
    if (!f.ok()) return f.error();
    format = *f;
  }
  std::optional<StartingPoint> start;
  if (!from.empty()) {
    auto sp = starting_point_from(from, flags);
    if (!sp.ok()) return sp.error();
    start.emplace(std::move(*sp));
  }
  auto rc = build_run_config(flags);
  if (!rc.ok()) return rc.error();
  if (start) rc->model = start->model;
  const std::uint64_t every = checkpoint_every.value_or(100);
  if (every == 0) return common::Error::invalid_argument("--checkpoint-every: must be at least 1");
  if (batch == 0) return common::Error::invalid_argument("--batch: must be at least 1");
  if (batch > nl::kMaxCheckpointStreams) {
    return common::Error::invalid_argument("--batch: at most " + std::to_string(nl::kMaxCheckpointStreams) + " sequences per step");
  }
  if (batch > 1 && rc->model.learned_schedule()) {
    return common::Error::invalid_argument("--batch: a learned frequency schedule picks its levels per sequence, so it trains one "
                                           "sequence per step; use --batch 1 or --schedule fixed");
  }
  auto c = load_corpus(data.path, rc->model.seq_len, format, rc->model.vocab);
  if (!c.ok()) return c.error();
  if (const std::size_t chunks = c->chunks(rc->model.seq_len); batch > chunks) {
    return common::Error::invalid_argument("--batch: " + std::to_string(batch) + " streams need " + std::to_string(batch) +
                                           " chunks of --seq-len " + std::to_string(rc->model.seq_len) + " tokens; " + c->name +
                                           " holds " + std::to_string(chunks));
  }
  TrainPlan p;
  p.corpus = std::move(*c);
  p.run.data = data.path;
  p.run.data_format = format;
  p.run.data_sha256 = p.corpus.sha256;
  p.run.data_bytes = p.corpus.bytes.size();
  p.run.steps = rc->steps;
  p.run.checkpoint_every = every;
  p.run.batch = batch;
  p.out = out.empty() ? "nltrain-run" : out;
  p.opt = rc->opt;
  nl::MagParams<float> params = start ? std::move(start->params) : nl::MagParams<float>::init(rc->model);
  if (fp64) {
    p.trainer64.emplace(rc->model, params.cast<double>(), rc->opt, batch);
  } else {
    p.trainer.emplace(rc->model, std::move(params), rc->opt, batch);
  }
  return p;
}

namespace {

// The rest of plan_resumed_run once the checkpoint is read, in its precision T.
template <typename T>
common::Result<TrainPlan> resume_from(const std::string& resume, const DataFlags& data, std::optional<std::size_t> vocab,
                                      const std::string& out, nl::BasicCheckpoint<T>& ck) {
  auto rec = decode_run(ck.run, checkpoint_path(resume));
  if (!rec.ok()) return rec.error();
  TrainPlan p;
  p.run = *rec;
  const nl::MagConfig& cfg = ck.state.cfg;
  // Both may be repeated (a script that always passes them), never changed: the parameters'
  // shapes follow the vocab, and the data's digest was taken of tokens in this format.
  if (vocab && *vocab != cfg.vocab) {
    return common::Error::invalid_argument("--vocab: " + std::to_string(*vocab) + " differs from the run's vocab " +
                                           std::to_string(cfg.vocab) + " in " + resume + "; --resume keeps the run's model");
  }
  if (data.format) {
    auto f = parse_data_format(*data.format);
    if (!f.ok()) return f.error();
    if (*f != p.run.data_format) {
      return common::Error::invalid_argument("--data-format: " + *data.format + " differs from the run's " +
                                             std::string(nl::token_format_name(p.run.data_format)) + " in " + resume);
    }
  }
  auto c = load_corpus(data.path.empty() ? p.run.data : data.path, cfg.seq_len, p.run.data_format, cfg.vocab);
  if (!c.ok()) return c.error();
  p.corpus = std::move(*c);
  if (p.corpus.sha256 != p.run.data_sha256) {
    return common::Error::malformed("--resume: the data (" + p.corpus.name +
                                    ") is not the data this run was trained on (its SHA-256 differs)");
  }
  p.opt = ck.state.opt;
  if (p.run.batch != 1 + ck.state.more_contexts.size()) {
    return common::Error::malformed(checkpoint_path(resume) + ": the run record's batch (" + std::to_string(p.run.batch) +
                                    ") does not match the checkpoint's " + std::to_string(1 + ck.state.more_contexts.size()) +
                                    " streams");
  }
  auto t = nl::BasicTrainer<T>::from_state(std::move(ck.state));
  if (!t.ok()) return t.error();
  if constexpr (std::is_same_v<T, double>) {
    p.trainer64.emplace(std::move(*t));
  } else {
    p.trainer.emplace(std::move(*t));
  }
  p.out = out.empty() ? resume : out;
  return p;
}

}  // namespace

common::Result<TrainPlan> plan_resumed_run(const std::string& resume, const DataFlags& data, std::optional<std::size_t> vocab,
                                           const std::string& out) {
  auto any = load_any_checkpoint(resume);
  if (!any.ok()) return any.error();
  return std::visit([&](auto& ck) -> common::Result<TrainPlan> { return resume_from(resume, data, vocab, out, ck); }, *any);
}

}  // namespace nltrain::cli