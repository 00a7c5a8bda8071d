// Backward time / forward time of one tape, measured in the same iteration:
//  * a 2-layer MLP (batch 64, 256 -> 512 -> 10, SiLU, cross-entropy): matmul-dominated;
//  * a chain of 1000 small ops on 8-element tensors: per-op overhead dominated.
// Forward is the traced (recording) forward. Goal (issue libcore/tape): ratio <= 1.5.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/tape.hpp"
#include "tape_bench_support.hpp"

namespace {


std::vector<float> random_values(std::size_t n, float scale, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

struct Split {
  double forward = 0, backward = 0;
};

void report(benchmark::State& state, const Split& s) {
  const double n = static_cast<double>(state.iterations());
  state.counters["forward_us"] = 1e6 * s.forward / n;
  state.counters["backward_us"] = 1e6 * s.backward / n;
  state.counters["backward_over_forward"] = s.backward / s.forward;
  state.counters["goal_ratio_le_1.5"] = s.backward / s.forward <= 1.5 ? 1 : 0;
}

void BM_backward_over_forward_mlp(benchmark::State& state) {
  constexpr std::size_t kBatch = 64, kIn = 256, kHidden = 512, kOut = 10;
  const auto x = random_values(kBatch * kIn, 1.0f, 1);
  const auto w1 = random_values(kIn * kHidden, 0.06f, 2);
  const auto w2 = random_values(kHidden * kOut, 0.04f, 3);
  std::vector<std::size_t> targets(kBatch);
  for (std::size_t i = 0; i < kBatch; ++i) targets[i] = i % kOut;
  Split s;
  for (auto _ : state) {
    tape::with_tape([&](tape::Tape& t) {
      const auto t0 = tapebench::thread_cpu_seconds();
      const tape::Tensor W1 = t.register_param(w1, tape::Shape{kIn, kHidden});
      const tape::Tensor W2 = t.register_param(w2, tape::Shape{kHidden, kOut});
      const tape::Tensor X = tape::Tensor::from(x, tape::Shape{kBatch, kIn});
      const tape::Tensor h = tape::ops::silu(tape::ops::matmul(X, W1));
      const tape::Tensor loss = tape::ops::cross_entropy(tape::ops::matmul(h, W2), targets);
      const auto t1 = tapebench::thread_cpu_seconds();
      t.backward(loss.id());
      benchmark::DoNotOptimize(t.get_grad(W1.id()).data());
      const auto t2 = tapebench::thread_cpu_seconds();
      s.forward += (t1 - t0);
      s.backward += (t2 - t1);
    });
  }
  report(state, s);
}

void BM_backward_over_forward_chain1000(benchmark::State& state) {
  const std::vector<float> eight = {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, -0.8f};
  const tape::Tensor c = tape::Tensor::from(eight, tape::Shape{8});
  Split s;
  for (auto _ : state) {
    tape::with_tape([&](tape::Tape& t) {
      const auto t0 = tapebench::thread_cpu_seconds();
      tape::Tensor y = t.register_param(eight, tape::Shape{8});
      const tape::Tensor p = y;
      for (int i = 0; i < 1000; ++i) y = tapebench::chain_step(i, y, c);
      const tape::Tensor loss = tape::ops::frobenius_dot(y, c);
      const auto t1 = tapebench::thread_cpu_seconds();
      t.backward(loss.id());
      benchmark::DoNotOptimize(t.get_grad(p.id()).data());
      const auto t2 = tapebench::thread_cpu_seconds();
      s.forward += (t1 - t0);
      s.backward += (t2 - t1);
    });
  }
  report(state, s);
}

}  // namespace

BENCHMARK(BM_backward_over_forward_mlp)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_backward_over_forward_chain1000)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
