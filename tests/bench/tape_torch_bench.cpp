// Per-op forward+backward cost on 8-element tensors: the tape against PyTorch autograd, both
// measured by this program (torch through /usr/bin/python3 tests/tape/torch/autograd_timing.py,
// the same op chain, best of its repeats). Goal (issue libcore/tape): torch / tape >= 20.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/tape.hpp"
#include "tape_bench_support.hpp"
#include "support/suite_paths.hpp"

namespace {

constexpr int kOps = 1000;

// ns per op of the torch chain, or a negative value when python/torch is unavailable.
double torch_ns_per_op() {
  const std::string cmd = std::string("/usr/bin/python3 ") + suite_test::source_dir() +
                          "/tests/tape/torch/autograd_timing.py " + std::to_string(kOps) + " 30 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  double ns = -1;
  if (std::fscanf(p, "ns_per_op=%lf", &ns) != 1) ns = -1;
  return pclose(p) == 0 ? ns : -1;
}

// One forward + backward of the chain; mirrors autograd_timing.py op for op.
void tape_chain(const std::vector<float>& eight, const tape::Tensor& c) {
  tape::with_tape([&](tape::Tape& t) {
    tape::Tensor y = t.register_param(eight, tape::Shape{8});
    const tape::Tensor x = y;
    for (int i = 0; i < kOps; ++i) y = tapebench::chain_step(i, y, c);
    const tape::Tensor loss = tape::ops::frobenius_dot(y, c);
    t.backward(loss.id());
    benchmark::DoNotOptimize(t.get_grad(x.id()).data());
  });
}

void BM_fwd_bwd_per_op_tape_vs_torch(benchmark::State& state) {
  const std::vector<float> eight = {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, -0.8f};
  const tape::Tensor c = tape::Tensor::from(eight, tape::Shape{8});
  const double torch_ns = torch_ns_per_op();
  if (torch_ns < 0) {
    state.SkipWithError("/usr/bin/python3 with torch is not available");
    return;
  }
  // Best-of timing like the torch side, so both numbers are measured the same way.
  double best = 1e300;
  for (auto _ : state) {
    const auto t0 = tapebench::thread_cpu_seconds();
    tape_chain(eight, c);
    const auto t1 = tapebench::thread_cpu_seconds();
    best = std::min(best, 1e9 * (t1 - t0));
  }
  const double tape_ns = best / (kOps + 2);
  state.counters["tape_ns_per_op"] = tape_ns;
  state.counters["torch_ns_per_op"] = torch_ns;
  state.counters["torch_over_tape"] = torch_ns / tape_ns;
  state.counters["goal_ratio_ge_20"] = torch_ns / tape_ns >= 20 ? 1 : 0;
}

}  // namespace

BENCHMARK(BM_fwd_bwd_per_op_tape_vs_torch)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
