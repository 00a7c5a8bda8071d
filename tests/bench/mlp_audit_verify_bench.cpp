// bp verify tensor on the README's MNIST-sized step (784-256-10, ReLU, batch 64, Adam), against
// PyTorch's own fp32 CPU step measured in the same run (tests/bench/mlp_torch_step.py, Debian's
// /usr/bin/python3 with torch):
//   BM_verify_mnist_step/threads:T  mlp_audit::StreamVerifier over receipts the shipped writer
//                                   wrote (parse, digests, the bounded fp64 forward, backward and
//                                   update, every comparison), seconds per receipt; torch timed
//                                   with T threads (0: its default, the cores available).
// Counters: "torch_step_s" (median step without the writer), "ratio_vs_torch_step" = verify per
// receipt / torch's step (issue 29's goal: at most 3), "writer_overhead" = (step with the writer
// - step without) / step without (goal: at most 0.10), each in wall time and, suffixed "_cpu", in
// CPU time of all the process's threads (what other work on a shared machine cannot inflate),
// and "load_1min" (that other work).
// The receipts are the writer's default (before="first": the state before the step in the first
// receipt only, the other five continue it), verified with bp verify tensor's allocator settings.
// Without /usr/bin/python3 and torch: skipped with the reason.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mlp_audit/verify.hpp"
#include "support/suite_paths.hpp"

namespace {

constexpr int kReceipts = 6;

struct TorchSide {
  double step_s = 0, with_writer_s = 0, step_cpu = 0, with_writer_cpu = 0;
  std::vector<std::string> lines;
};

double cpu_now() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double load_1min() {
  std::ifstream in("/proc/loadavg");
  double v = 0;
  in >> v;
  return v;
}

bool torch_side(int threads, TorchSide& out) {
  const std::string receipts = "/tmp/mlp_audit_verify_bench_" + std::to_string(threads) + ".jsonl";
  const std::string cmd = "/usr/bin/python3 '" + suite_test::source_dir() + "/tests/bench/mlp_torch_step.py' '" + receipts +
                          "' " + std::to_string(kReceipts) + " " + std::to_string(threads) + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return false;
  const bool got = std::fscanf(p, "%lf %lf %lf %lf", &out.step_s, &out.with_writer_s, &out.step_cpu, &out.with_writer_cpu) == 4;
  if (::pclose(p) != 0 || !got) return false;
  std::ifstream in(receipts);
  for (std::string line; std::getline(in, line);) out.lines.push_back(std::move(line));
  std::remove(receipts.c_str());
  return static_cast<int>(out.lines.size()) == kReceipts;
}

void BM_verify_mnist_step(benchmark::State& state) {
  TorchSide t;
  if (!torch_side(static_cast<int>(state.range(0)), t)) {
    state.SkipWithError("/usr/bin/python3 with torch could not run tests/bench/mlp_torch_step.py");
    return;
  }
  const double load = load_1min();
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);  // as bp verify tensor does (apps/bp/verify_tensor.cpp)
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
  double seconds = 0, cpu = 0;
  std::int64_t receipts = 0;
  for (auto _ : state) {
    mlp_audit::StreamVerifier v("bench");
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_now();
    for (std::size_t i = 0; i < t.lines.size(); ++i) {
      if (!v.add(t.lines[i], static_cast<std::int64_t>(i + 1)).ok() || v.failure_count() != 0) {
        state.SkipWithError("the receipts do not verify");
        return;
      }
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu += cpu_now() - c0;
    receipts += static_cast<std::int64_t>(t.lines.size());
  }
  const double per = seconds / static_cast<double>(receipts);
  state.counters["verify_s_per_receipt"] = per;
  state.counters["torch_step_s"] = t.step_s;
  state.counters["ratio_vs_torch_step"] = per / t.step_s;
  state.counters["writer_overhead"] = (t.with_writer_s - t.step_s) / t.step_s;
  const double per_cpu = cpu / static_cast<double>(receipts);
  state.counters["verify_cpu_s_per_receipt"] = per_cpu;
  state.counters["torch_step_cpu_s"] = t.step_cpu;
  state.counters["ratio_vs_torch_step_cpu"] = per_cpu / t.step_cpu;
  state.counters["writer_overhead_cpu"] = (t.with_writer_cpu - t.step_cpu) / t.step_cpu;
  state.counters["load_1min"] = load;
}
BENCHMARK(BM_verify_mnist_step)->ArgName("threads")->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
