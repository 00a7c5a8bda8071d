// `bp import pytorch multi` on a 1,000-step sidecar, the reference measured in the same run:
//   BM_import_multi_1000_library  importer::import_sidecar_stream on the bytes (steps/s), against
//                                 the reference's importPytorchSidecarStream in a warmed node loop
//   BM_import_multi_1000_process/jobs:N  one `bp import pytorch multi F --jobs N` process (stdout to
//                                 /dev/null), N = 1 and 2, against one `node <reference>/dist/bin/bp.js
//                                 import pytorch multi F`; counters "us_per_step" (wall) and
//                                 "cpu_us_per_step" (user + system of the process)
//   BM_import_multi_run_1000_process/jobs:N  the same on a real 1,000-step run of that net
//                                 recorded by the helper (tests/bench/pytorch_momentum_run.py,
//                                 through /usr/bin/python3 with torch; skipped without them)
// The first sidecar repeats one step written by bp's PyTorch helper from a real PyTorch run
// (tests/bench/data/pytorch_sgd_momentum_step.sidecar.json: a 2-3-2 sigmoid net, SGD with
// momentum) with step_index 0..999, so every record costs a full parse, schema check, engine
// re-run, differential and emission; but every member of every line is the line before's, so
// anything that reuses work by content makes it look faster than a run would: the run's lines
// change where a run's do (inputs, parameters, gradients, momentum) and repeat the rest.
// Counter "ratio_vs_reference" = reference time / our time. Without the reference (installed by
// the compat tests in <build>/reference) or node, no ratio.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "bench/reference_process.hpp"
#include "importer/observer_import.hpp"
#include "support/suite_paths.hpp"

namespace {

constexpr int kSteps = 1000;
const std::string kStep = suite_test::source_dir() + "/tests/bench/data/pytorch_sgd_momentum_step.sidecar.json";
const std::string kSidecar = bench::kBinaryDir + "/tests/bench/import_multi_1000.sidecar.jsonl";
const std::string kRunSidecar = bench::kBinaryDir + "/tests/bench/import_multi_run_1000.sidecar.jsonl";

// The 1,000-line stream, written once next to the benchmark (the process benchmarks read it).
const std::string& sidecar_bytes() {
  static const std::string bytes = [] {
    std::ifstream in(kStep);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string step = ss.str();
    while (!step.empty() && (step.back() == '\n' || step.back() == '\r')) step.pop_back();
    if (step.size() < 2 || step.front() != '{') return std::string();
    std::string out;
    out.reserve((step.size() + 40) * kSteps);
    for (int i = 0; i < kSteps; ++i) {
      out += "{\"trace_id\":\"0123456789abcdef0123456789abcdef\",\"step_index\":" + std::to_string(i) + "," +
             step.substr(1) + "\n";
    }
    std::ofstream(kSidecar, std::ios::binary) << out;
    return out;
  }();
  return bytes;
}

// The real run's sidecar, recorded once next to the benchmark; false when it cannot be.
bool run_sidecar() {
  static const bool made = [] {
    const std::string cmd = "/usr/bin/python3 '" + suite_test::source_dir() + "/tests/bench/pytorch_momentum_run.py' " +
                            std::to_string(kSteps) + " '" + kRunSidecar + "' > /dev/null 2>&1";
    return std::system(cmd.c_str()) == 0 && bench::exists(kRunSidecar);
  }();
  return made;
}

importer::ImportOptions options() {
  importer::ImportOptions o;
  o.framework = importer::Framework::pytorch;
  o.import_timestamp = "2023-11-14T22:13:20.000Z";
  return o;
}

// Seconds per step of the reference's importPytorchSidecarStream in one node process (warmed up).
std::optional<double> reference_library_seconds_per_step() {
  const std::string script =
      "import('" + bench::kReferencePackage + "/dist/index.js').then(r=>{const b=require('fs').readFileSync('" +
      kSidecar + "','utf8');const o={importTimestamp:'2023-11-14T22:13:20.000Z'};r.importPytorchSidecarStream(b,o);"
      "const n=3;const t=process.hrtime.bigint();for(let i=0;i<n;i++){const x=r.importPytorchSidecarStream(b,o);"
      "if(!x)throw new Error('no result')}console.log(Number(process.hrtime.bigint()-t)/n/1e9/" +
      std::to_string(kSteps) + ")})";
  return bench::node_number(script);
}

void BM_import_multi_1000_library(benchmark::State& state) {
  const std::string& bytes = sidecar_bytes();
  if (bytes.empty()) {
    state.SkipWithError("cannot read tests/bench/data/pytorch_sgd_momentum_step.sidecar.json");
    return;
  }
  static const auto reference = reference_library_seconds_per_step();
  const auto opts = options();
  std::size_t steps = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    auto r = importer::import_sidecar_stream(bytes, opts);
    if (!r || !r->all_passed()) {
      state.SkipWithError("the 1,000-step sidecar does not import cleanly");
      return;
    }
    benchmark::DoNotOptimize(r->bytes.data());
    steps += kSteps;
  }
  const double per_step = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                          static_cast<double>(steps);
  state.counters["steps_per_s"] = 1.0 / per_step;
  if (reference) {
    state.counters["reference_steps_per_s"] = 1.0 / *reference;
    state.counters["ratio_vs_reference"] = *reference / per_step;
  }
}
BENCHMARK(BM_import_multi_1000_library)->Unit(benchmark::kMillisecond);

// One `bp import pytorch multi <sidecar> --jobs N` process per iteration, against the reference's
// (measured once per sidecar).
void import_process(benchmark::State& state, const std::string& sidecar) {
  static std::map<std::string, std::optional<double>> references;
  if (!references.contains(sidecar)) {
    std::optional<double> r;
    if (bench::reference_available()) {
      const double s = bench::seconds_per_run({"node", bench::kReferenceCli, "import", "pytorch", "multi", sidecar}, 2);
      if (s > 0) r = s;
    }
    references[sidecar] = r;
  }
  const std::optional<double> reference = references[sidecar];
  const std::string jobs = std::to_string(state.range(0));
  double total = 0, cpu = 0;
  for (auto _ : state) {
    const double c0 = bench::children_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    if (!bench::run_quiet({bench::kBp, "import", "pytorch", "multi", sidecar, "--jobs", jobs})) {
      state.SkipWithError("bp import pytorch multi failed");
      return;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    total += s;
    cpu += bench::children_cpu_seconds() - c0;
  }
  if (state.iterations() == 0) return;
  const double runs = static_cast<double>(state.iterations());
  state.counters["us_per_step"] = total / runs / kSteps * 1e6;
  state.counters["cpu_us_per_step"] = cpu / runs / kSteps * 1e6;
  if (reference) {
    state.counters["reference_s"] = *reference;
    state.counters["ratio_vs_reference"] = *reference / (total / runs);
  }
}

// Both process benchmarks: --jobs 1 and 2, timed by the wall clock around each process.
void process_runs(benchmark::internal::Benchmark* b) {
  b->ArgName("jobs")->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);
}

void BM_import_multi_1000_process(benchmark::State& state) {
  if (sidecar_bytes().empty() || !bench::exists(bench::kBp)) {
    state.SkipWithError("bp or the sidecar is missing");
    return;
  }
  import_process(state, kSidecar);
}
BENCHMARK(BM_import_multi_1000_process)->Apply(process_runs);

void BM_import_multi_run_1000_process(benchmark::State& state) {
  if (!bench::exists(bench::kBp)) {
    state.SkipWithError("bp is missing");
    return;
  }
  if (!run_sidecar()) {
    state.SkipWithError("/usr/bin/python3 with torch could not record tests/bench/pytorch_momentum_run.py");
    return;
  }
  import_process(state, kRunSidecar);
}
BENCHMARK(BM_import_multi_run_1000_process)->Apply(process_runs);

}  // namespace

BENCHMARK_MAIN();
