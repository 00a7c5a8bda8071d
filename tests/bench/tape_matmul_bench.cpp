// 1024x1024 matmul forward + backward on the tape against the three plain cblas_sgemm calls
// the same math needs (C = A B, dA = dC B^T, dB = A^T dC), in the same run.
// Goal (issue libcore/tape): tape time / sgemm time <= 1.2.
// BLAS runs on one thread so that the calling thread's CPU time is the whole cost on both sides
// (the bench machine is shared; wall time would count other processes).
#include <benchmark/benchmark.h>

#include <cblas.h>

#include <random>
#include <vector>

#include "tape/ops/matmul.hpp"
#include "tape/tape.hpp"
#include "tape_bench_support.hpp"

namespace {

constexpr int kN = 1024;

std::vector<float> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

void BM_matmul1024_tape_vs_sgemm(benchmark::State& state) {
  const std::size_t n2 = static_cast<std::size_t>(kN) * kN;
  const auto a = random_values(n2, 1), b = random_values(n2, 2), seed = random_values(n2, 3);
  std::vector<float> c(n2), da(n2), db(n2);
  openblas_set_num_threads(1);
  double tape_s = 0, blas_s = 0;
  for (auto _ : state) {
    const auto t0 = tapebench::thread_cpu_seconds();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kN, kN, kN, 1.0f, a.data(), kN, b.data(), kN, 0.0f,
                c.data(), kN);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, kN, kN, kN, 1.0f, seed.data(), kN, b.data(), kN, 0.0f,
                da.data(), kN);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, kN, kN, kN, 1.0f, a.data(), kN, seed.data(), kN, 0.0f,
                db.data(), kN);
    benchmark::DoNotOptimize(db.data());
    const auto t1 = tapebench::thread_cpu_seconds();
    tape::with_tape([&](tape::Tape& t) {
      const tape::Tensor A = t.register_param(a, tape::Shape{kN, kN});
      const tape::Tensor B = t.register_param(b, tape::Shape{kN, kN});
      const tape::Tensor C = tape::ops::matmul(A, B);
      t.backward(C.id(), seed);
      benchmark::DoNotOptimize(t.get_grad(B.id()).data());
    });
    const auto t2 = tapebench::thread_cpu_seconds();
    blas_s += (t1 - t0);
    tape_s += (t2 - t1);
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["sgemm_x3_ms"] = 1e3 * blas_s / n;
  state.counters["tape_fwd_bwd_ms"] = 1e3 * tape_s / n;
  state.counters["tape_over_sgemm"] = tape_s / blas_s;
  state.counters["goal_ratio_le_1.2"] = tape_s / blas_s <= 1.2 ? 1 : 0;
}

}  // namespace

BENCHMARK(BM_matmul1024_tape_vs_sgemm)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
