// nltrain train: language modelling on bytes of text or token ids, with checkpoints, resume and metrics.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "device_option.hpp"
#include "jsonl_sink.hpp"
#include "common/worker_pool.hpp"
#include "nl/blas_threads.hpp"
#include "nl/trainer.hpp"
#include "progress.hpp"
#include "rank_share.hpp"
#include "receipt_stream.hpp"
#include "run_dir.hpp"
#include "train_batch.hpp"
#include "train_budget.hpp"
#include "train_episodes.hpp"
#include "train_plan.hpp"
#include "train_options.hpp"
#include "train_refusals.hpp"
#include "train_summary.hpp"
#include "train_trace.hpp"

namespace nltrain::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

// The planned run with its trainer in T: float, or double for --fp64 (one process, no memory
// budget, the hand-written backward: each refused before this where it would not hold).
template <typename T>
int train_planned(const TrainOptions& o, TrainPlan& plan, std::optional<nl::BasicTrainer<T>>& trainer) {
  constexpr bool fp64 = std::is_same_v<T, double>;
  const bool resuming = !o.resume.empty();
  RunRecord& run = plan.run;
  const std::size_t batch = trainer->batch();
  if (common::Status s = refuse_batch(o, batch); !s.ok()) return report(s.error());
  const nl::AdamWConfig& opt = plan.opt;
  const Corpus& corpus = plan.corpus;
  const std::string& out = plan.out;
  // Under mpirun with R > 1: this rank's share of the batch; rank 0 alone writes (and says why
  // a start was refused: one line, not one per rank).
  std::optional<RankShare> share;
  const std::string identity = rank_identity(encode_run(run), trainer->config(), trainer->step(), batch, o.stop_at.value_or(0));
  if (common::Status s = fp64 ? refuse_ranks("--fp64") : join_ranks(batch, identity, share); !s.ok()) {
    return speaks_for_the_run() ? report(s.error()) : exit_code_for(s.error().code());
  }
  const bool writer = !share || share->rank() == 0;
  if (common::Status s = refuse_stop_at(o, run.steps, trainer->step()); !s.ok()) return report(s.error());
  // --trace-out, refused or opened (a temporary beside it) before the run directory is touched.
  std::unique_ptr<TrainTrace> trace;
  if (writer && !o.trace_out.empty()) {
    auto t = TrainTrace::open(o.trace_out, batch);
    if (!t.ok()) return report(t.error());
    trace = std::move(*t);
  }
  // Only the writing rank takes the run directory; a start refused below leaves none (RunDirLock).
  std::optional<RunDirLock> lock;
  if (writer) {
    auto l = lock_run_dir(out);
    if (!l.ok()) return report(l.error());
    lock.emplace(std::move(*l));
  }
  if (writer && !resuming && has_checkpoint(out) && !o.force) {
    return report(common::Error::io("--out: " + out + " already holds a checkpoint; continue it with --resume " + out +
                                    ", or start over with --force"));
  }
  if (writer && resuming && out != o.resume && has_checkpoint(out) && !o.force) {
    return report(common::Error::io("--out: " + out + " already holds a checkpoint; use --force to replace it"));
  }
  // Before any output is opened: a refused budget leaves every file as it was.
  common::Result<BudgetedSpill> budget = BudgetedSpill{};  // none for --fp64 (refused with --memory-budget)
  if constexpr (!fp64) budget = open_budget(o, out, *trainer, share ? &*share : nullptr, trace.get());
  if (!budget.ok()) return speaks_for_the_run() ? report(budget.error()) : exit_code_for(budget.error().code());
  JsonlSink metrics;
  ReceiptStream receipts;
  if (resuming && trainer->step() >= run.steps) {
    const TrainSummary done{TrainSummary::Status::complete, trainer->step(), trainer->step(), run.steps, 0, 0, 0, 0, 0,
                            checkpoint_path(out), o.resume};
    if (writer) std::cout << (o.json ? summary_json(done) : summary_text(done, trainer->config()));
    return kExitOk;
  }
  const std::optional<std::uint64_t> resume_step = resuming ? std::optional(trainer->step()) : std::nullopt;
  auto metrics_step = [](const nlohmann::ordered_json& j) -> std::optional<std::uint64_t> {
    if (!j.is_object() || !j.contains("step") || !j.at("step").is_number_unsigned()) return std::nullopt;
    return j.at("step").get<std::uint64_t>();
  };
  if (writer) {
    if (common::Status s = metrics.open("--metrics", "an nltrain metrics file", o.metrics, resume_step, metrics_step); !s.ok()) return report(s.error());
    if (common::Status s = receipts.open(o.receipts, run, resume_step, fp64); !s.ok()) return report(s.error());
  }
  std::ostream& say = metrics.on_stdout() || receipts.on_stdout() ? std::cerr : std::cout;
  const nl::MagConfig cfg = trainer->config();
  const std::uint64_t last = o.stop_at ? *o.stop_at : run.steps;
  const std::uint64_t first = trainer->step();
  // Every rank takes part (rank 0 collects the streams' context memories); rank 0 writes.
  auto checkpoint = [&]() -> common::Status {
    if constexpr (!fp64) {
      if (share) {
        if (common::Status s = share->collect_contexts(*trainer); !s.ok()) return s;
      }
    }
    if (!writer) return {};
    const nl::TimedPhase save(trace.get(), nl::StepPhase::checkpoint);
    receipts.keep_in(run);
    return save_checkpoint(out, nl::BasicCheckpoint<T>{trainer->state(), encode_run(run)});
  };
  // A rank that cannot go on while the others wait in an exchange ends them all.
  auto fatal = [&](const common::Error& e) {
    const int code = report(e);
    if (share) share->abort(code);
    return code;
  };
  std::uint64_t last_saved = first;
  const bool had_checkpoint = resuming || has_checkpoint(out);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  // A closed metrics pipe is reported by write(2) as EPIPE and handled below, not a silent death.
  std::signal(SIGPIPE, SIG_IGN);
  g_stop_signal = 0;

  const std::size_t tokens_per_step = cfg.seq_len * batch;
  Progress progress(o.quiet || !writer, first, last);
  progress.set_tokens_per_step(static_cast<double>(tokens_per_step));
  TrainBatch data(corpus, cfg.seq_len, batch);
  // Threads only for a batch: each runs whole sequences, so BLAS gets one thread of its own.
  std::optional<common::WorkerPool> pool;
  const std::size_t local = share ? share->count() : batch;  // the streams this process computes
  if (batch > 1) {
    (void)nl::use_one_blas_thread();  // speed only: the bits are the same either way
    pool.emplace(std::min<std::size_t>(o.threads.value_or(common::available_cores()), local));
  }
  std::optional<common::Error> write_failed;  // on the writing rank: stop after this step, then say why
  double model_s = 0, outside_s = 0;
  float first_loss = NAN, last_loss = NAN;
  const auto t0 = TrainClock::now();
  while (trainer->step() < last) {
    bool stop = g_stop_signal != 0 || write_failed.has_value();
    if (share) {  // every rank stops at the same step
      auto any = share->any(stop);
      if (!any.ok()) return fatal(any.error());
      stop = *any;
    }
    if (stop) break;
    const auto a = TrainClock::now();
    const std::uint64_t n = trainer->step();
    nl::BasicStepTrace<T>* audit = receipts.before(*trainer);
    nl::TimedPhase reading(trace.get(), nl::StepPhase::read_data);
    data.read(n);
    for (std::size_t s = 0; s < batch; ++s) {
      if (data.at(s).wrapped) trainer->reset_context(s);  // the stream wrapped: a new document
    }
    reading.end();
    const double lr = nl::learning_rate(opt, n);
    const auto b = TrainClock::now();
    const std::span<const nl::Sequence> mine = std::span(data.sequences()).subspan(share ? share->first() : 0, local);
    auto r = trainer->build_batch_step(opaque_registry(), mine, fp64 ? nl::GradientPath::hand_written : nl::GradientPath::tape,
                                       pool ? &*pool : nullptr, audit,
                                       share ? &*share : nullptr, trace.get(), budget->get());
    const auto e = TrainClock::now();
    model_s += seconds(e - b);
    if (!r.ok()) {  // every rank has the same failure (nl::BatchShare::first_failure); rank 0 says it
      if (!writer) return kExitFailure;
      progress.break_line();
      std::cerr << step_failed_line(n, r.error(), last_saved > 0 || had_checkpoint ? std::optional(last_saved) : std::nullopt, out);
      return r.error().kind() == nl::StepFailure::io ? kExitMalformedOrIo : kExitFailure;  // a spill's disk, or the math
    }
    if (std::isnan(first_loss)) first_loss = static_cast<float>(r->loss);
    last_loss = static_cast<float>(r->loss);
    const double elapsed = seconds(TrainClock::now() - t0);
    const double tok_s = static_cast<double>((n + 1 - first) * tokens_per_step) / std::max(elapsed, 1e-9);
    // schemas/nltrain-metrics.v0.1.0.json: what the run computed, then (only when asked) the
    // wall clock, apart, so a seeded run's metrics are the same bytes every time.
    nlohmann::ordered_json m{{"step", n}, {"loss", loss_json(r->loss)}, {"grad_norm", r->grad_norm}, {"lr", lr}};
    if (o.metrics_timing) m["timing"] = {{"tokens_per_s", std::round(tok_s)}, {"elapsed_s", std::round(elapsed * 1000) / 1000}};
    add_spill_cost(m, *budget, o.metrics_timing);
    const std::size_t c = data.at(0).chunk;  // receipts: one stream only
    common::Status written;
    nl::TimedPhase writing(trace.get(), nl::StepPhase::metrics);
    if (writer) written = receipts.after(*trainer, {c, corpus.byte_offset(c, cfg.seq_len), data.at(0).wrapped, data.ids(0), data.targets(0)}, *r);
    if (writer && written.ok()) written = metrics.write(m.dump());
    writing.end();
    if (common::Status s = written; !s.ok() && share) {
      write_failed = s.error();  // the other ranks stop with this one at the next step
    } else if (!s.ok()) {
      // The step is trained; keep it. A reader that exits early (| head) closes the pipe: stop
      // cleanly with a checkpoint rather than lose the run (SIGPIPE is ignored above).
      progress.break_line();
      if (common::Status c = checkpoint(); !c.ok()) return report(c.error());
      return report(common::Error::io(s.error().message() + "; training stopped after step " + std::to_string(trainer->step()) +
                                      ", checkpoint saved in " + out + " (continue with: nltrain train --resume " + out + ")"));
    }
    progress.update(n + 1, static_cast<float>(r->loss), tok_s, false);
    if (trainer->step() % run.checkpoint_every == 0 && trainer->step() < last) {
      if (common::Status s = checkpoint(); !s.ok()) {
        progress.break_line();
        return fatal(s.error());
      }
      last_saved = trainer->step();
    }
    if (common::Status s = trace ? trace->end_step(n, a) : common::Status{}; !s.ok() && !write_failed) write_failed = s.error();
    outside_s += seconds(b - a) + seconds(TrainClock::now() - e);
  }
  const auto s0 = TrainClock::now();
  if (common::Status s = checkpoint(); !s.ok()) {
    progress.break_line();
    return fatal(s.error());
  }
  if (common::Status s = trace && !write_failed ? trace->finish() : common::Status{}; !s.ok()) write_failed = s.error();
  if (write_failed) {
    return report(common::Error::io(write_failed->message() + "; training stopped after step " + std::to_string(trainer->step()) +
                                    ", checkpoint saved in " + out + " (continue with: nltrain train --resume " + out + ")"));
  }
  if (!writer) return kExitOk;
  if (common::Status s = append_episode(o.episodes, *budget, out); !s.ok()) return report(s.error());  // train_episodes.hpp
  outside_s += seconds(TrainClock::now() - s0);
  const double elapsed = seconds(TrainClock::now() - t0);
  const std::uint64_t done = trainer->step() - first;
  const double tok_s = static_cast<double>(done * tokens_per_step) / std::max(elapsed, 1e-9);
  progress.update(trainer->step(), last_loss, tok_s, true);
  const TrainSummary summary{g_stop_signal != 0 ? TrainSummary::Status::interrupted : TrainSummary::Status::trained,
                             first, trainer->step(), run.steps, first_loss, last_loss, tok_s, model_s, outside_s,
                             checkpoint_path(out), out};
  say << (o.json ? summary_json(summary) : summary_text(summary, cfg));
  return kExitOk;
}

}  // namespace

int run_train(const TrainOptions& o) {
  if (common::Status s = refuse_flags(o); !s.ok()) return report(s.error());
  if (common::Status s = use_device(o.device, o.fp64); !s.ok()) return report(s.error());  // device_option.hpp
  auto plan = !o.resume.empty() ? plan_resumed_run(o.resume, o.data, o.flags.vocab, o.out)
                                : plan_new_run(o.flags, o.checkpoint_every, o.batch.value_or(1), o.data, o.out, o.from, o.fp64);
  if (!plan.ok()) return report(plan.error());
  if (common::Status s = refuse_precision(o, plan->trainer64.has_value()); !s.ok()) return report(s.error());
  return plan->trainer64 ? train_planned(o, *plan, plan->trainer64) : train_planned(o, *plan, plan->trainer);
}

}  // namespace nltrain::cli
