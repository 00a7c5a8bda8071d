// `nltrain train` end to end: tokens/s of the tool (checkpoints every 100 steps and at the end,
// a metrics line per step, progress off) at d = 8, 32, 128 for DeltaRule and TitansLMM (K = 2,
// seq_len 32, vocab 256, the embedded corpus), against the bare library loop measured side by
// side in the same iteration: Trainer::build_step on the same chunks with nothing else (the
// baseline). Counters: tool and loop tokens/s, tool/loop ratio, and the share of the tool's step
// time spent outside the model (data, logging, checkpoints) as the tool itself accounts it.
// CPU time on both sides (the tool's: its process's user+system time, start-up included, from
// RUSAGE_CHILDREN), since the machine is shared; the tool's own wall-clock tokens/s is reported
// too (tool_wall_tok_s).
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nl/register_opaque_vjps.hpp"
#include "nl/trainer.hpp"
#include "reference_process.hpp"

namespace {

const std::string kNltrain = bench::kBinaryDir + "/apps/nltrain/nltrain";
constexpr std::size_t kSeq = 32;

std::size_t steps_for(std::size_t d) { return d <= 8 ? 400 : d <= 32 ? 200 : 40; }
std::size_t heads_for(std::size_t d) { return d <= 16 ? 2 : d / 8; }

double cpu_seconds(int who) {
  rusage u{};
  ::getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The tool's --json summary (stdout of one run).
nlohmann::json run_tool(const std::string& rule, std::size_t d, std::size_t steps, const std::string& dir) {
  const std::string cmd = kNltrain + " train --rule " + rule + " --d " + std::to_string(d) + " --heads " +
                          std::to_string(heads_for(d)) + " --seq-len " + std::to_string(kSeq) + " --steps " +
                          std::to_string(steps) + " --out " + dir + " --force --quiet --json --metrics " + dir +
                          "/metrics.jsonl";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return nullptr;
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  if (::pclose(p) != 0) return nullptr;
  return nlohmann::json::parse(out, nullptr, false);
}

// The same model and chunks through the library alone.
double loop_tokens_per_s(nl::RuleKind rule, std::size_t d, std::size_t steps) {
  static const tape::opaque::OpaqueRegistry reg = [] {
    tape::opaque::OpaqueRegistry r;
    (void)nl::register_opaque_vjps(r);
    return r;
  }();
  nl::MagConfig cfg;
  cfg.vocab = 256, cfg.d = d, cfg.heads = heads_for(d), cfg.seq_len = kSeq, cfg.window = kSeq, cfg.rule = rule;
  cfg.rule_cfg.d = d, cfg.rule_cfg.d_h = 16, cfg.rule_cfg.m = 8, cfg.rule_cfg.d_c = std::min<std::size_t>(16, d);
  cfg.periods = {1, 8};
  nl::AdamWConfig opt;
  opt.lr = 3e-3, opt.warmup = 20, opt.total_steps = steps;
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), opt);
  std::vector<std::size_t> ids(kSeq), tg(kSeq);
  const std::string text(256 * kSeq, 'a');
  const double t0 = cpu_seconds(RUSAGE_THREAD);
  for (std::size_t n = 0; n < steps; ++n) {
    for (std::size_t i = 0; i < kSeq; ++i) ids[i] = (n * 7 + i * 13) % 256, tg[i] = (n * 7 + i * 13 + 1) % 256;
    auto r = t.build_step(reg, ids, tg, nl::GradientPath::tape);
    benchmark::DoNotOptimize(r);
  }
  return static_cast<double>(steps * kSeq) / (cpu_seconds(RUSAGE_THREAD) - t0);
}

void BM_nltrain_train(benchmark::State& state, nl::RuleKind rule, const char* name) {
  if (!bench::exists(kNltrain)) {
    state.SkipWithError("nltrain is not built");
    return;
  }
  const auto d = static_cast<std::size_t>(state.range(0));
  const std::size_t steps = steps_for(d);
  char tmpl[] = "/tmp/nltrain-bench-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl) != nullptr ? tmpl : "/tmp/nltrain-bench";
  double tool = 0, tool_wall = 0, loop = 0, outside = 0;
  for (auto _ : state) {
    const double c0 = cpu_seconds(RUSAGE_CHILDREN);
    const nlohmann::json j = run_tool(name, d, steps, dir);
    tool = static_cast<double>(steps * kSeq) / (cpu_seconds(RUSAGE_CHILDREN) - c0);
    if (!j.is_object()) {
      state.SkipWithError("nltrain train failed");
      break;
    }
    tool_wall = j["timing"]["tokens_per_s"].get<double>();
    outside = j["timing"]["outside_share"].get<double>();
    loop = loop_tokens_per_s(rule, d, steps);
  }
  state.counters["tool_tok_s"] = tool;
  state.counters["tool_wall_tok_s"] = tool_wall;
  state.counters["loop_tok_s"] = loop;
  state.counters["tool_over_loop"] = loop > 0 ? tool / loop : 0;
  state.counters["outside_share"] = outside;
  std::system(("rm -rf " + dir).c_str());
}

BENCHMARK_CAPTURE(BM_nltrain_train, delta, nl::RuleKind::delta, "delta")
    ->Arg(8)->Arg(32)->Arg(128)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_nltrain_train, titans, nl::RuleKind::titans, "titans")
    ->Arg(8)->Arg(32)->Arg(128)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
