// One MAG chunk's forward + backward (s = 64 tokens, k = 1) per memory rule at d = 8, 32, 128:
// tokens/s through nl's hand-written path (cms_forward + cms_backward, the baseline, measured
// side by side) and through gpu_cms_backward on the CPU launcher and, where a device is usable,
// on the CUDA launcher (issue 12: the GPU path against the CPU path at d = 32 and d = 128).
// Wall time, best of the iterations (the machine is shared; a GPU's time is not thread CPU time).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "gpu/gpu_cms_backward.hpp"
#include "mag_chunk_setup.hpp"
#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"

namespace {

using magbench::kSeq;
using magbench::make;
using magbench::Setup;

template <typename F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double hand_step(const Setup& s) {
  return seconds([&] {
    auto f = nl::cms_forward<float>(s.cfg, s.params, s.ids, s.targets, s.pulse, s.context);
    auto g = nl::cms_backward<float>(s.cfg, s.params, *f);
    benchmark::DoNotOptimize(g);
  });
}

double gpu_step(const Setup& s, gpu::Backend& b) {
  return seconds([&] {
    auto f = nl::cms_forward<float>(s.cfg, s.params, s.ids, s.targets, s.pulse, s.context);
    auto g = gpu::gpu_cms_backward(b, s.cfg, s.params, *f, s.context);
    if (!g.ok()) std::fprintf(stderr, "gpu_cms_backward: %s\n", g.error().message().c_str());
    benchmark::DoNotOptimize(g);
  });
}

void BM_rule(benchmark::State& state) {
  const auto rule = nl::kAllRuleKinds[state.range(0)];
  const Setup s = make(rule, static_cast<std::size_t>(state.range(1)));
  gpu::Backend* cuda = gpu::cuda_backend().backend;
  state.SetLabel(std::string(nl::to_string(rule)) + (cuda ? "" : " (no CUDA device: " + gpu::cuda_backend().reason + ")"));
  double best_hand = 1e300, best_cpu = 1e300, best_cuda = 1e300;
  for (auto _ : state) {
    best_hand = std::min(best_hand, hand_step(s));
    best_cpu = std::min(best_cpu, gpu_step(s, gpu::cpu_backend()));
    if (cuda) best_cuda = std::min(best_cuda, gpu_step(s, *cuda));
  }
  state.counters["hand_tok_s"] = kSeq / best_hand;
  state.counters["cpu_launcher_tok_s"] = kSeq / best_cpu;
  state.counters["cpu_launcher_over_hand"] = best_cpu / best_hand;
  if (cuda) {
    state.counters["cuda_tok_s"] = kSeq / best_cuda;
    state.counters["cuda_speedup_vs_hand"] = best_hand / best_cuda;
  }
}

void rules(benchmark::internal::Benchmark* b) {
  for (long r = 0; r < static_cast<long>(std::size(nl::kAllRuleKinds)); ++r)
    for (long d : {8, 32, 128}) b->Args({r, d});
}

}  // namespace

BENCHMARK(BM_rule)->Apply(rules)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
