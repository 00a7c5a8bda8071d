// Recording overhead per op on tiny (8-element) tensors: the same chain of ops run untraced and
// under a tape, in the same benchmark, reported as ns/op each and their difference.
// Goal (issue libcore/tape): overhead <= 20 ns per op.
#include <benchmark/benchmark.h>

#include <vector>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/nl_normalized_silu.hpp"
#include "tape/tape.hpp"
#include "tape_bench_support.hpp"

namespace {

constexpr int kChain = 1000;  // ops per tape: a realistic tape, so the tape's own setup is amortised

const std::vector<float> kEight = {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, -0.6f, 0.7f, -0.8f};

using OpFn = tape::Tensor (*)(const tape::Tensor&, const tape::Tensor&);

tape::Tensor add_op(const tape::Tensor& y, const tape::Tensor& c) { return tape::ops::add(y, c); }
tape::Tensor mul_op(const tape::Tensor& y, const tape::Tensor& c) { return tape::ops::mul(y, c); }
tape::Tensor sigmoid_op(const tape::Tensor& y, const tape::Tensor&) { return tape::ops::sigmoid(y); }
tape::Tensor nsilu_op(const tape::Tensor& y, const tape::Tensor&) { return tape::ops::normalized_silu(y); }

tape::Tensor chain(OpFn op, tape::Tensor y, const tape::Tensor& c) {
  for (int i = 0; i < kChain; ++i) y = op(y, c);
  return y;
}

// constant_operand: the second operand is a tensor made without the tape, so every use enters
// it as a new constant leaf (Tape::adopt); otherwise it is registered on the tape once.
void record_overhead(benchmark::State& state, OpFn op, bool constant_operand = false) {
  const tape::Tensor c = tape::Tensor::from(kEight, tape::Shape{8});
  const tape::Tensor x0 = tape::Tensor::from(kEight, tape::Shape{8});
  double untraced = 0, traced = 0;
  for (auto _ : state) {
    const auto t0 = tapebench::thread_cpu_seconds();
    benchmark::DoNotOptimize(chain(op, x0, c));
    const auto t1 = tapebench::thread_cpu_seconds();
    tape::with_tape([&](tape::Tape& t) {
      const tape::Tensor x = t.register_param(kEight, tape::Shape{8});
      const tape::Tensor operand = constant_operand ? c : t.register_input(kEight, tape::Shape{8});
      benchmark::DoNotOptimize(chain(op, x, operand));
    });
    const auto t2 = tapebench::thread_cpu_seconds();
    untraced += (t1 - t0);
    traced += (t2 - t1);
  }
  const double n = static_cast<double>(state.iterations()) * kChain;
  state.counters["untraced_ns_per_op"] = 1e9 * untraced / n;
  state.counters["traced_ns_per_op"] = 1e9 * traced / n;
  state.counters["overhead_ns_per_op"] = 1e9 * (traced - untraced) / n;
  state.counters["goal_overhead_le_20ns"] = 1e9 * (traced - untraced) / n <= 20.0 ? 1 : 0;
}

void BM_record_add8(benchmark::State& s) { record_overhead(s, add_op); }
void BM_record_add8_constant_operand(benchmark::State& s) { record_overhead(s, add_op, true); }
void BM_record_mul8(benchmark::State& s) { record_overhead(s, mul_op); }
void BM_record_sigmoid8(benchmark::State& s) { record_overhead(s, sigmoid_op); }
void BM_record_normalized_silu8(benchmark::State& s) { record_overhead(s, nsilu_op); }

}  // namespace

BENCHMARK(BM_record_add8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_record_add8_constant_operand)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_record_mul8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_record_sigmoid8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_record_normalized_silu8)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
