// nltrain train on R = 1 and 2 MPI ranks (mpirun, this build's nltrain), side by side in one
// iteration: the same run (d = 128, --batch 8, seq_len 32, 60 steps, no checkpoint until the end)
// timed from launch to exit, so each R pays its own start-up. Counters: tokens_per_s_r1,
// tokens_per_s_r2 and r2_over_r1. --threads 1 per rank, so R = 2 uses two cores where R = 1 uses
// one. Skipped when mpirun is missing or the build has no MPI (the run is then refused).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>

#include "support/suite_paths.hpp"

namespace {

constexpr int kSteps = 60, kBatch = 8, kSeq = 32;

// Seconds the command took, or a negative value when it failed.
double timed(const std::string& cmd) {
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = std::system(cmd.c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rc == 0 ? s : -1;
}

void BM_train_ranks(benchmark::State& state) {
  const std::string work = suite_test::binary_dir() + "/dist_bench_work";
  const std::string nltrain = suite_test::binary_dir() + "/apps/nltrain/nltrain";
  std::system(("rm -rf '" + work + "' && mkdir -p '" + work + "'").c_str());
  {
    std::ofstream data(work + "/data.txt", std::ios::binary);
    for (int i = 0; i < 200000; ++i) data.put(static_cast<char>('a' + (i * 7 + i / 13) % 26));
  }
  const std::string env =
      "OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ";
  auto run = [&](int ranks) {
    const std::string out = work + "/r" + std::to_string(ranks);
    return timed(env + "mpirun -n " + std::to_string(ranks) + " '" + nltrain + "' train --d 128 --heads 8 --seq-len " +
                 std::to_string(kSeq) + " --window " + std::to_string(kSeq) + " --batch " + std::to_string(kBatch) +
                 " --threads 1 --steps " + std::to_string(kSteps) + " --checkpoint-every 1000 --quiet --data '" + work +
                 "/data.txt' --out '" + out + "' --force >/dev/null 2>&1");
  };
  double one = 0, two = 0;
  for (auto _ : state) {
    one = run(1);
    two = run(2);
    if (one < 0 || two < 0) {
      state.SkipWithError("mpirun or nltrain failed (no MPI in this build, or no mpirun on PATH)");
      return;
    }
    state.SetIterationTime(one + two);
  }
  const double tokens = static_cast<double>(kSteps) * kBatch * kSeq;
  state.counters["tokens_per_s_r1"] = tokens / one;
  state.counters["tokens_per_s_r2"] = tokens / two;
  state.counters["r2_over_r1"] = one / two;
}

BENCHMARK(BM_train_ranks)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
