// nltrain train --batch 8 at d = 128 (nl_trainer_setup.hpp's model): tokens/s of Trainer::build_batch_step on 1 and on 2
// threads (common::WorkerPool), measured side by side in each iteration, so one run gives the
// ratio (counter `speedup`, the goal being >= 1.8 on 2 free cores). Wall-clock time, since the
// point is threads; on a shared machine read it with the load average (uptime) beside it.
// Both sides start from the same trainer and must train the same losses bit for bit (checked).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/worker_pool.hpp"
#include "nl_trainer_setup.hpp"

namespace {

constexpr std::size_t kSeq = 32, kBatch = 8, kSteps = 6;

// kSteps batched steps on `threads`; returns the seconds taken and appends the losses.
double timed_steps(nl::Trainer t, std::size_t threads, std::vector<float>& losses) {
  common::WorkerPool pool(threads);
  std::vector<std::vector<std::size_t>> ids(kBatch, std::vector<std::size_t>(kSeq)), tg = ids;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t n = 0; n < kSteps; ++n) {
    std::vector<nl::Sequence> seqs;
    for (std::size_t b = 0; b < kBatch; ++b) {
      for (std::size_t i = 0; i < kSeq; ++i) ids[b][i] = (b * 31 + n * 7 + i * 13) % 256, tg[b][i] = (ids[b][i] + 1) % 256;
      seqs.push_back({ids[b], tg[b]});
    }
    auto r = t.build_batch_step(nlbench::registry(), seqs, nl::GradientPath::tape, &pool);
    losses.push_back(r.ok() ? r->loss : -1.0f);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_batch_threads(benchmark::State& state) {
  const auto d = static_cast<std::size_t>(state.range(0));
  const nl::Trainer start = nlbench::delta_trainer(d, kSeq, 2, 1000, kBatch);
  double best1 = 1e300, best2 = 1e300;
  for (auto _ : state) {
    std::vector<float> l1, l2;
    best1 = std::min(best1, timed_steps(start, 1, l1));
    best2 = std::min(best2, timed_steps(start, 2, l2));
    if (l1 != l2) {
      state.SkipWithError("1 and 2 threads trained different losses");
      return;
    }
  }
  const double tokens = static_cast<double>(kSteps * kBatch * kSeq);
  state.counters["tok_s_1thread"] = tokens / best1;
  state.counters["tok_s_2threads"] = tokens / best2;
  state.counters["speedup"] = best1 / best2;
}
BENCHMARK(BM_batch_threads)->Arg(128)->Iterations(5)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

// One BLAS thread, as nltrain train --batch asks for (nl/blas_threads.hpp), set before the
// library loads (see nl_rules_bench.cpp: set later, OpenBLAS's idle threads keep spinning).
int main(int argc, char** argv) {
  if (const char* v = std::getenv("OPENBLAS_NUM_THREADS"); v == nullptr || std::string(v) != "1") {
    ::setenv("OPENBLAS_NUM_THREADS", "1", 1);
    ::execv("/proc/self/exe", argv);  // on failure, go on with the threads spinning
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
