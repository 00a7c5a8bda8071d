// bp generate benchmarks, with the reference measured in the same run as the baseline:
//   BM_bp_generate_iris_process      one `bp generate iris` process (stdout to /dev/null)
//   BM_reference_generate_iris_process  the same through `node <reference>/dist/bin/bp.js`
//   BM_generate_iris_library         generate_builtin("iris") + emit_receipts, in process
//   BM_engine_step_iris              compute_general_step on the parsed iris input (engine steps/s):
//                                    input checks, every number of the receipt, in typed arrays
//   BM_engine_step_and_emit_iris     the same plus the canonical bytes (what `bp generate` writes)
// Counters "ratio_vs_reference" = reference time / our time (above 1: we are faster). The
// reference's steps/s comes from one node process running runGeneralStep(IRIS_INPUT) in a loop
// (for the emit case: emitReceipts([runGeneralStep(IRIS_INPUT)])).
// The reference is the one the compat tests install in <build>/reference; without it (or node)
// the reference benchmarks are skipped and no ratio is reported.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/reference_process.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/topology/parse_topology_input.hpp"

namespace {

using bench::exists;
using bench::kBp;
using bench::kReferenceCli;
using bench::kReferenceIndex;
using bench::reference_available;
using bench::run_quiet;
using bench::seconds_per_run;

// Measured once, before the benchmarks that report a ratio against it.
std::optional<double> reference_invocation_seconds() {
  static const std::optional<double> value = []() -> std::optional<double> {
    if (!reference_available()) return std::nullopt;
    const double s = seconds_per_run({"node", kReferenceCli, "generate", "iris"}, 5);
    return s > 0 ? std::optional<double>(s) : std::nullopt;
  }();
  return value;
}

// Seconds per runGeneralStep(IRIS_INPUT) in one node process; with `emit`, per
// emitReceipts([runGeneralStep(IRIS_INPUT)]) (the step and its canonical bytes).
std::optional<double> reference_step_seconds_uncached(bool emit) {
  const std::string step = emit ? "l.emitReceipts([l.runGeneralStep(l.IRIS_INPUT)])" : "l.runGeneralStep(l.IRIS_INPUT)";
  const std::string script = "import('" + kReferenceIndex + "').then(l=>{const n=" + (emit ? "2000" : "20000") +
                             ";for(let i=0;i<500;i++)" + step + ";const t=process.hrtime.bigint();for(let i=0;i<n;i++)" +
                             step + ";console.log(Number(process.hrtime.bigint()-t)/n/1e9)})";
  return bench::node_number(script);
}

std::optional<double> reference_step_seconds(bool emit) {
  static const std::optional<double> step = reference_step_seconds_uncached(false);
  static const std::optional<double> step_and_emit = reference_step_seconds_uncached(true);
  return emit ? step_and_emit : step;
}

void BM_bp_generate_iris_process(benchmark::State& state) {
  if (!exists(kBp)) {
    state.SkipWithError("bp is not built");
    return;
  }
  const auto ref = reference_invocation_seconds();
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run_quiet({kBp, "generate", "iris"})) {
      state.SkipWithError("bp generate iris failed");
      return;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    total += s;
  }
  if (ref && state.iterations() > 0) {
    state.counters["reference_s"] = *ref;
    state.counters["ratio_vs_reference"] = *ref / (total / static_cast<double>(state.iterations()));
  }
}
BENCHMARK(BM_bp_generate_iris_process)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);

void BM_reference_generate_iris_process(benchmark::State& state) {
  if (!reference_available()) {
    state.SkipWithError("reference not installed (run the bp_reference_install test) or node missing");
    return;
  }
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run_quiet({"node", kReferenceCli, "generate", "iris"})) {
      state.SkipWithError("reference generate iris failed");
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}
BENCHMARK(BM_reference_generate_iris_process)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_generate_iris_library(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto receipts = receipt::engine::generate_builtin("iris");
    if (!receipts) {
      state.SkipWithError(receipts.error().to_string().c_str());
      return;
    }
    auto text = receipt::emit::emit_receipts(receipts.value());
    if (!text) {
      state.SkipWithError(text.error().to_string().c_str());
      return;
    }
    bytes = text->size();
    benchmark::DoNotOptimize(text->data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
}
BENCHMARK(BM_generate_iris_library)->Unit(benchmark::kMicrosecond);

std::optional<receipt::topology::TopologyInput> iris_topology_input(benchmark::State& state) {
  auto doc = receipt::engine::scaffold_topology("iris");
  if (!doc) {
    state.SkipWithError(doc.error().to_string().c_str());
    return std::nullopt;
  }
  auto input = receipt::topology::parse_topology_input(nlohmann::json::parse(doc->dump()), "iris");
  if (!input) {
    state.SkipWithError(input.error().to_string().c_str());
    return std::nullopt;
  }
  return std::move(*input);
}

// Steps per second of `one_step` on the iris input (parsed once, shared by every step, as the
// reference's runGeneralStep(IRIS_INPUT) shares its input object), with the reference as baseline.
template <class Step>
void engine_steps(benchmark::State& state, bool emit, Step one_step) {
  const auto parsed = iris_topology_input(state);
  if (!parsed) return;
  auto input = std::make_shared<receipt::engine::GeneralInput>();
  input->base = *parsed;
  const std::shared_ptr<const receipt::engine::GeneralInput> shared = input;
  const auto ref = reference_step_seconds(emit);
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!one_step(shared)) {
      state.SkipWithError("engine step failed");
      return;
    }
  }
  const double per_step = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                          static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  if (ref) {
    state.counters["reference_steps_per_s"] = 1.0 / *ref;
    state.counters["ratio_vs_reference"] = *ref / per_step;
  }
}

void BM_engine_step_iris(benchmark::State& state) {
  engine_steps(state, false, [](const std::shared_ptr<const receipt::engine::GeneralInput>& in) {
    auto receipt = receipt::engine::compute_general_step(in);
    benchmark::DoNotOptimize(receipt);
    return receipt.ok();
  });
}
BENCHMARK(BM_engine_step_iris)->Unit(benchmark::kMicrosecond);

void BM_engine_step_and_emit_iris(benchmark::State& state) {
  engine_steps(state, true, [](const std::shared_ptr<const receipt::engine::GeneralInput>& in) {
    auto receipt = receipt::engine::compute_general_step(in);
    if (!receipt) return false;
    auto text = receipt::emit::emit_receipt_line(*receipt);
    benchmark::DoNotOptimize(text);
    return text.ok();
  });
}
BENCHMARK(BM_engine_step_and_emit_iris)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
