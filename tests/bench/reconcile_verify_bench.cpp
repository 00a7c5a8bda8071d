// Reconciler and `bp verify` benchmarks, the reference measured in the same run as the baseline:
//   BM_reconcile_iris_library      reconcile_receipt on the parsed iris golden (records/s), against
//                                  the reference's reconcileReceipt in a node loop on the same record
//   BM_reconcile_multi_xor_library MultiStepReconciler over the xor multi-step bundle (records/s),
//                                  against the reference's reconcileMultiStep on the same records
//   BM_reconcile_derived_record_library  the rules of one 7 KB bundle record as verify multi runs them
//                                  (Rule 14 on every record), already parsed; no reference ratio
//   BM_bp_verify_general_iris_process  one `bp verify general` process on the iris golden, against
//                                  one `node <reference>/dist/bin/bp.js verify general` process
//   BM_bp_verify_multi_per_record  records verified per second inside one `bp verify multi --jobs 1` process
//                                  (one core; verify_multi_jobs_bench measures more jobs):
//                                  (CPU time on a 4,000-record bundle - CPU time on a 400-record one)
//                                  / 3,600, so process start-up cancels out; the reference's
//                                  `verify multi` process measured the same way on the same files
//                                  (bundles from tests/support/bundle_gen: XOR 2-2-1, a valid chain)
// Counter "ratio_vs_reference" = reference time / our time (above 1: we are faster); for processes
// "cpu_ratio_vs_reference" the same in CPU time (user + system), steadier on a busy machine. Without the
// reference (installed by the compat tests in <build>/reference) or node, no ratio is reported.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/reference_process.hpp"
#include "common/json_document_reader.hpp"
#include "reconcile/reconcile.hpp"
#include "support/suite_paths.hpp"

namespace {

const std::string kIris = suite_test::source_dir() + "/fixtures/iris.golden.jsonl";
const std::string kXorMulti = suite_test::source_dir() + "/fixtures/xor.multi-step.jsonl";

std::vector<nlohmann::ordered_json> read_records(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::ordered_json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(nlohmann::ordered_json::parse(line));
  }
  return out;
}

// Seconds per record of the reference's reconciler on `path`, in one node process (warmed up).
std::optional<double> reference_seconds_per_record(const std::string& path, bool multi) {
  const std::string call = multi ? "r.reconcileMultiStep(recs)" : "r.reconcileReceipt(recs[0])";
  const std::string script =
      "import('" + bench::kReferencePackage + "/dist/reconcile.js').then(r=>{const fs=require('fs');const recs=fs."
      "readFileSync('" + path + "','utf8').split('\\n').filter(l=>l).map(l=>JSON.parse(l));const n=3000;for(let i=0;"
      "i<300;i++)" + call + ";const t=process.hrtime.bigint();for(let i=0;i<n;i++){const x=" + call +
      ";if(!x.ok)throw new Error('not ok')}console.log(Number(process.hrtime.bigint()-t)/n/1e9/" +
      (multi ? "recs.length" : "1") + ")})";
  return bench::node_number(script);
}

void report_rate(benchmark::State& state, double seconds, std::size_t records, std::optional<double> reference) {
  const double per_record = seconds / static_cast<double>(records);
  state.counters["records_per_s"] = 1.0 / per_record;
  if (reference) {
    state.counters["reference_records_per_s"] = 1.0 / *reference;
    state.counters["ratio_vs_reference"] = *reference / per_record;
  }
}

void BM_reconcile_iris_library(benchmark::State& state) {
  const auto records = read_records(kIris);
  static const auto reference = reference_seconds_per_record(kIris, false);
  std::size_t n = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const auto r = reconcile::reconcile_receipt(records.front());
    if (!r.ok) {
      state.SkipWithError("iris golden does not reconcile");
      return;
    }
    benchmark::DoNotOptimize(r);
    ++n;
  }
  report_rate(state, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), n, reference);
}
BENCHMARK(BM_reconcile_iris_library)->Unit(benchmark::kMicrosecond);

void BM_reconcile_multi_xor_library(benchmark::State& state) {
  const auto records = read_records(kXorMulti);
  static const auto reference = reference_seconds_per_record(kXorMulti, true);
  std::size_t n = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    reconcile::MultiStepReconciler multi;
    bool ok = true;
    for (const auto& r : records) ok = multi.add(r).ok && ok;
    ok = multi.finish().ok && ok;
    if (!ok) {
      state.SkipWithError("xor multi-step bundle does not reconcile");
      return;
    }
    n += records.size();
  }
  report_rate(state, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), n, reference);
}
BENCHMARK(BM_reconcile_multi_xor_library)->Unit(benchmark::kMicrosecond);

void BM_bp_verify_general_iris_process(benchmark::State& state) {
  if (!bench::exists(bench::kBp)) {
    state.SkipWithError("bp is not built");
    return;
  }
  struct Times {
    double wall = 0, cpu = 0;
  };
  static const std::optional<Times> reference = []() -> std::optional<Times> {
    if (!bench::reference_available()) return std::nullopt;
    constexpr int kRuns = 5;
    const double c0 = bench::children_cpu_seconds();
    const double s = bench::seconds_per_run({"node", bench::kReferenceCli, "verify", "general", kIris}, kRuns);
    if (s <= 0) return std::nullopt;
    return Times{s, (bench::children_cpu_seconds() - c0) / kRuns};
  }();
  double total = 0;
  const double c0 = bench::children_cpu_seconds();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!bench::run_quiet({bench::kBp, "verify", "general", kIris})) {
      state.SkipWithError("bp verify general iris failed");
      return;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    total += s;
  }
  const double n = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  const double cpu = (bench::children_cpu_seconds() - c0) / n;
  state.counters["cpu_ms"] = cpu * 1e3;
  if (reference && state.iterations() > 0) {
    state.counters["reference_s"] = reference->wall;
    state.counters["reference_cpu_s"] = reference->cpu;
    state.counters["ratio_vs_reference"] = reference->wall / (total / n);
    state.counters["cpu_ratio_vs_reference"] = reference->cpu / cpu;
  }
}
BENCHMARK(BM_bp_verify_general_iris_process)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);

// A valid `records`-record bundle written by bundle_gen, made once per run; empty when it cannot be.
std::string bundle(int records) { return bench::generated_bundle(records, "bp_verify_multi_bench"); }

// The rules of one `bp verify multi` record as verify multi runs them (every record derived: Rule 14
// re-runs the engine on it; sums judged against their terms): the second record of a generated
// bundle, 7 KB, already read as verify multi reads it (a document, reconcile::ReadReceipt; its
// nodes built by the first iteration). Rule 14 is most of it (a record compares about a hundred numbers).
void BM_reconcile_derived_record_library(benchmark::State& state) {
  static const std::unique_ptr<reconcile::ReadReceipt> record = []() -> std::unique_ptr<reconcile::ReadReceipt> {
    std::ifstream in(bundle(2));
    std::string first, second;
    if (!std::getline(in, first) || !std::getline(in, second)) return nullptr;
    auto doc = common::parse_json_document(second);
    if (!doc) return nullptr;
    return std::make_unique<reconcile::ReadReceipt>(std::move(*doc));
  }();
  if (!record) return state.SkipWithError("bundle_gen is not built or failed");
  const reconcile::Options options{.derive_every_record = true, .term_scaled_sums = true};
  for (auto _ : state) {
    const auto r = reconcile::reconcile_receipt(*record, options);
    if (!r.ok) return state.SkipWithError("the generated record does not reconcile");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_reconcile_derived_record_library)->Unit(benchmark::kMicrosecond)->MinTime(1.0);

// CPU seconds of one `args... file` process (the best of `runs`: the least disturbed by a busy machine).
std::optional<double> process_cpu_seconds(std::vector<std::string> args, const std::string& file, int runs) {
  args.push_back(file);
  double best = -1;
  for (int i = 0; i < runs; ++i) {
    const double c0 = bench::children_cpu_seconds();
    if (!bench::run_quiet(args)) return std::nullopt;
    const double c = bench::children_cpu_seconds() - c0;
    if (best < 0 || c < best) best = c;
  }
  return best;
}

constexpr int kShortBundle = 400;
constexpr int kLongBundle = 4000;

// CPU seconds per record of `args` on the long bundle beyond the short one.
std::optional<double> seconds_per_record(const std::vector<std::string>& args, const std::string& shorter,
                                         const std::string& longer, int runs) {
  const auto a = process_cpu_seconds(args, shorter, runs);
  const auto b = process_cpu_seconds(args, longer, runs);
  if (!a || !b || *b <= *a) return std::nullopt;
  return (*b - *a) / (kLongBundle - kShortBundle);
}

void BM_bp_verify_multi_per_record(benchmark::State& state) {
  if (!bench::exists(bench::kBp)) return state.SkipWithError("bp is not built");
  static const std::string shorter = bundle(kShortBundle);
  static const std::string longer = bundle(kLongBundle);
  if (shorter.empty() || longer.empty()) return state.SkipWithError("bundle_gen is not built or failed");
  static const auto reference = [&]() -> std::optional<double> {
    if (!bench::reference_available()) return std::nullopt;
    return seconds_per_record({"node", bench::kReferenceCli, "verify", "multi"}, shorter, longer, 2);
  }();
  std::optional<double> ours;
  for (auto _ : state) {
    ours = seconds_per_record({bench::kBp, "verify", "multi", "--jobs", "1"}, shorter, longer, 3);
    if (!ours) return state.SkipWithError("bp verify multi failed on a generated bundle");
    state.SetIterationTime(*ours * (kLongBundle - kShortBundle));
  }
  state.counters["records_per_s"] = 1.0 / *ours;
  state.counters["us_per_record"] = *ours * 1e6;
  if (reference) {
    state.counters["reference_records_per_s"] = 1.0 / *reference;
    state.counters["ratio_vs_reference"] = *reference / *ours;
  }
}
BENCHMARK(BM_bp_verify_multi_per_record)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
