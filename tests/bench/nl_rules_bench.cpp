// Forward+backward of one MAG chunk (s = 64 tokens, k = 1) per memory rule at d = 8, 32, 128:
// tokens/s through the tape path (tape_gradients: record, opaque blocks, backward) and through
// the hand-written path (cms_forward + cms_backward), their ratio, and the tape's share of its
// step (the part of the tape path's time the hand-written path does not spend). BM_vs_torch
// measures the same DeltaRule model in PyTorch in this run (tests/nl/torch/mag_timing.py, fp32,
// one thread) against our tape path. Goal (issue 9): >= 50x PyTorch at d <= 32, >= 5x at d = 128.
// Times are thread CPU time, best of the iterations (the machine is shared).
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mag_chunk_setup.hpp"
#include "nl/cms_backward.hpp"
#include "nl/register_opaque_vjps.hpp"
#include "nl/traced_cms_forward.hpp"
#include "tape_bench_support.hpp"
#include "support/suite_paths.hpp"

namespace {

using magbench::kSeq;
using magbench::make;
using magbench::Setup;
// Best of this many steps on both sides (ours and torch's): the machine is shared and noisy.
constexpr int kRepeats = 20;
constexpr int kWarmup = 50;

const tape::opaque::OpaqueRegistry& registry() {
  static const tape::opaque::OpaqueRegistry r = [] {
    tape::opaque::OpaqueRegistry reg;
    (void)nl::register_opaque_vjps(reg);
    return reg;
  }();
  return r;
}

double tape_step(const Setup& s) {
  const double t0 = tapebench::thread_cpu_seconds();
  auto r = nl::tape_gradients(registry(), s.cfg, s.params, s.ids, s.targets, s.pulse, s.context);
  benchmark::DoNotOptimize(r);
  return tapebench::thread_cpu_seconds() - t0;
}

double hand_step(const Setup& s) {
  const double t0 = tapebench::thread_cpu_seconds();
  auto f = nl::cms_forward<float>(s.cfg, s.params, s.ids, s.targets, s.pulse, s.context);
  auto g = nl::cms_backward<float>(s.cfg, s.params, *f);
  benchmark::DoNotOptimize(g);
  return tapebench::thread_cpu_seconds() - t0;
}

void BM_rule(benchmark::State& state) {
  const auto rule = nl::kAllRuleKinds[state.range(0)];
  const Setup s = make(rule, static_cast<std::size_t>(state.range(1)));
  state.SetLabel(std::string(nl::to_string(rule)));
  double best_tape = 1e300, best_hand = 1e300;
  for (auto _ : state) {
    best_tape = std::min(best_tape, tape_step(s));
    best_hand = std::min(best_hand, hand_step(s));
  }
  state.counters["tape_tok_s"] = kSeq / best_tape;
  state.counters["hand_tok_s"] = kSeq / best_hand;
  state.counters["tape_over_hand"] = best_tape / best_hand;
  state.counters["tape_share"] = std::max(0.0, (best_tape - best_hand) / best_tape);
}
BENCHMARK(BM_rule)->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7, 8}, {8, 32, 128}})->Iterations(10)->Unit(benchmark::kMillisecond);

// tokens/s of the torch model, or a negative value when python/torch is unavailable.
double torch_tokens_per_s(const nl::MagConfig& c) {
  const std::string cmd = std::string("/usr/bin/python3 ") + suite_test::source_dir() + "/tests/nl/torch/mag_timing.py " +
                          std::to_string(c.d) + " " + std::to_string(c.seq_len) + " " + std::to_string(c.heads) + " " +
                          std::to_string(c.window) + " " + std::to_string(c.vocab) + " " +
                          std::to_string(kRepeats) + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  double v = -1;
  if (std::fscanf(p, "tokens_per_s=%lf", &v) != 1) v = -1;
  return pclose(p) == 0 ? v : -1;
}

void BM_vs_torch(benchmark::State& state) {
  const Setup s = make(nl::RuleKind::delta, static_cast<std::size_t>(state.range(0)));
  const double torch = torch_tokens_per_s(s.cfg);
  if (torch < 0) {
    state.SkipWithError("/usr/bin/python3 with torch is not available");
    return;
  }
  // The same footing on both sides: torch's number is its best step within a window of kRepeats
  // steps (~10-70 ms each, after its own warm-up steps); ours is our best step within a window
  // of the same length (at least kRepeats steps), after kWarmup untimed steps. A best of 20 of
  // our 0.1-0.3 ms steps spans ~5 ms, which one stall of this shared machine covers whole.
  const double window = kRepeats * static_cast<double>(kSeq) / torch;
  for (int i = 0; i < kWarmup; ++i) (void)tape_step(s);
  double best = 1e300;
  int steps = 0;
  for (auto _ : state) {
    const double t0 = tapebench::thread_cpu_seconds();
    for (; steps < kRepeats || tapebench::thread_cpu_seconds() - t0 < window; ++steps) {
      best = std::min(best, tape_step(s));
    }
  }
  state.counters["tape_steps"] = steps;
  state.counters["torch_tok_s"] = torch;
  state.counters["tape_tok_s"] = kSeq / best;
  state.counters["tape_over_torch_speed"] = (kSeq / best) / torch;
}
// The tape path alone, as BM_vs_torch times it (no torch process): the one to profile.
void BM_tape(benchmark::State& state) {
  const Setup s = make(nl::RuleKind::delta, static_cast<std::size_t>(state.range(0)));
  double best = 1e300;
  for (auto _ : state) best = std::min(best, tape_step(s));
  state.counters["tape_tok_s"] = kSeq / best;
}
BENCHMARK(BM_tape)->Arg(8)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond);

BENCHMARK(BM_vs_torch)->Arg(8)->Arg(32)->Arg(128)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

// One BLAS thread, as torch runs with one (mag_timing.py): thread CPU time would not see
// OpenBLAS's helper threads, and on a shared machine they only add contention.
// OpenBLAS starts its worker threads when the library loads, before main; openblas_set_num_threads(1)
// later leaves them spinning in sched_yield, and on this 2-vCPU machine that slowed ~1 process in
// 4 by 25-40% (whole-process, every kernel alike). Hence the environment variable, set and the
// benchmark re-executed before the library loads.
int main(int argc, char** argv) {
  if (const char* v = std::getenv("OPENBLAS_NUM_THREADS"); v == nullptr || std::string(v) != "1") {
    ::setenv("OPENBLAS_NUM_THREADS", "1", 1);
    ::execv("/proc/self/exe", argv);  // on failure, go on with the threads spinning
  }
  openblas_set_num_threads(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
