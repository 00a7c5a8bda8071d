// `bp verify multi --jobs N` throughput on bundles from tests/support/bundle_gen (XOR 2-2-1, SGD,
// a valid chain, about 7 KB a record), --jobs 1 measured in the same run as the baseline:
//   BM_bp_verify_multi_jobs_process  records/s of one `bp verify multi F --json --jobs N` process,
//                                    N = 1 and 2, in wall time: (the best time on a 3,000-record
//                                    bundle - the best on a 300-record one) / 2,700, so process
//                                    start-up cancels out; the two N alternate round by round so
//                                    that both see the same machine. Counter "ratio_jobs2_vs_jobs1"
//                                    = records/s with 2 jobs / records/s with 1.
//   BM_verify_multi_library/jobs:N   verify::verify_multi on the 3,000-record bundle in this process
//                                    (no observer), records/s in wall time; jobs:2 reports the
//                                    ratio against jobs:1 of the same run.
// Counters "load_1min_before" / "load_1min_after": the machine's load average around the
// measurement, which the ratio needs beside it (other work on the cores takes them from the jobs).
// "cpu_us_per_record_jobs1|2" (user + system time of the process per record, the same
// subtraction) and "ratio_bound_2_cores" = 2 x CPU per record with 1 job / CPU per record with 2:
// the ratio two otherwise idle cores would give if the jobs overlapped perfectly, which says
// what the threads cost apart from what the machine's other work took.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "bench/reference_process.hpp"
#include "verify/multi.hpp"

namespace {

constexpr int kShortBundle = 300;
constexpr int kLongBundle = 3000;

// A valid `records`-record bundle written by bundle_gen, made once per run; empty when it cannot be.
std::string bundle(int records) { return bench::generated_bundle(records, "verify_multi_jobs_bench"); }

double load_1min() {
  double load[1] = {0};
  return ::getloadavg(load, 1) == 1 ? load[0] : -1;
}

struct Seconds {
  double wall = 0, cpu = 0;
};

// Wall and CPU seconds of one `bp verify multi file --json --jobs N` (stdout and stderr to
// /dev/null); nullopt unless it passes.
std::optional<Seconds> process_seconds(const std::string& file, int jobs) {
  const double c0 = bench::children_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  if (!bench::run_quiet({bench::kBp, "verify", "multi", file, "--json", "--jobs", std::to_string(jobs)})) {
    return std::nullopt;
  }
  return Seconds{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                 bench::children_cpu_seconds() - c0};
}

void BM_bp_verify_multi_jobs_process(benchmark::State& state) {
  if (!bench::exists(bench::kBp)) return state.SkipWithError("bp is not built");
  static const std::string shorter = bundle(kShortBundle);
  static const std::string longer = bundle(kLongBundle);
  if (shorter.empty() || longer.empty()) return state.SkipWithError("bundle_gen is not built or failed");
  const double load_before = load_1min();
  // best[jobs - 1][0 short, 1 long], wall and CPU apart
  double best[2][2] = {{1e30, 1e30}, {1e30, 1e30}};
  double best_cpu[2][2] = {{1e30, 1e30}, {1e30, 1e30}};
  int round = 0;
  for (auto _ : state) {
    for (int k = 0; k < 2; ++k) {
      const int jobs = (round + k) % 2 + 1;  // 1, 2 then 2, 1: neither always goes first
      for (int size = 0; size < 2; ++size) {
        const auto s = process_seconds(size == 0 ? shorter : longer, jobs);
        if (!s) return state.SkipWithError("bp verify multi failed on a generated bundle");
        best[jobs - 1][size] = std::min(best[jobs - 1][size], s->wall);
        best_cpu[jobs - 1][size] = std::min(best_cpu[jobs - 1][size], s->cpu);
      }
    }
    ++round;
  }
  double rate[2] = {0, 0};
  double cpu[2] = {0, 0};
  for (int j = 0; j < 2; ++j) {
    const double per_record = (best[j][1] - best[j][0]) / (kLongBundle - kShortBundle);
    cpu[j] = (best_cpu[j][1] - best_cpu[j][0]) / (kLongBundle - kShortBundle);
    if (per_record <= 0 || cpu[j] <= 0) return state.SkipWithError("the long bundle did not take longer than the short one");
    rate[j] = 1.0 / per_record;
  }
  state.counters["cpu_us_per_record_jobs1"] = cpu[0] * 1e6;
  state.counters["cpu_us_per_record_jobs2"] = cpu[1] * 1e6;
  state.counters["ratio_bound_2_cores"] = 2 * cpu[0] / cpu[1];
  state.counters["records_per_s_jobs1"] = rate[0];
  state.counters["records_per_s_jobs2"] = rate[1];
  state.counters["ratio_jobs2_vs_jobs1"] = rate[1] / rate[0];
  state.counters["load_1min_before"] = load_before;
  state.counters["load_1min_after"] = load_1min();
}
BENCHMARK(BM_bp_verify_multi_jobs_process)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_verify_multi_library(benchmark::State& state) {
  static const std::string longer = bundle(kLongBundle);
  if (longer.empty()) return state.SkipWithError("bundle_gen is not built or failed");
  static double jobs1_rate = 0;
  const auto jobs = static_cast<std::size_t>(state.range(0));
  const double load_before = load_1min();
  double seconds = 0;
  std::size_t records = 0;
  for (auto _ : state) {
    const int fd = ::open(longer.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return state.SkipWithError("cannot open the bundle");
    const auto t0 = std::chrono::steady_clock::now();
    auto out = verify::verify_multi(fd, longer, {{}, jobs});
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ::close(fd);
    if (!out || out->overall != "pass") return state.SkipWithError("the generated bundle does not pass");
    records += out->records;
  }
  const double rate = static_cast<double>(records) / seconds;
  state.counters["records_per_s"] = rate;
  if (jobs == 1) jobs1_rate = rate;
  if (jobs != 1 && jobs1_rate > 0) state.counters["ratio_vs_jobs1"] = rate / jobs1_rate;
  state.counters["load_1min_before"] = load_before;
  state.counters["load_1min_after"] = load_1min();
}
BENCHMARK(BM_verify_multi_library)->ArgName("jobs")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
