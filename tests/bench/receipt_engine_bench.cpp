// Receipt engine throughput. Baseline: the bare forward/backward pass (compute_step) on the same
// network, so each case's ratio to it shows what building and emitting the receipt costs.
//   BM_typed_step_wide            compute_general_step: the typed receipt (what `bp generate` uses)
//   BM_typed_step_and_emit_wide   ... plus its canonical bytes
//   BM_document_step_wide         run_general_step: the same receipt as a JSON document
//   BM_document_step_and_emit_wide ... emitted through the document emitter
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/engine/general_step.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/engine/step_core.hpp"

using namespace receipt::engine;

namespace {

std::string edge(const std::string& f, const std::string& t, std::size_t) { return "w_" + f + "_" + t; }

// The largest topology-input network: 64-64-64, sigmoid, per-layer biases.
GeneralInput wide() {
  DenseNames n;
  // Built by appends: a literal + a temporary draws GCC 12's false -Wrestrict at -O3.
  const auto id = [](char layer, int i) {
    std::string s(1, layer);
    s += std::to_string(i);
    return s;
  };
  for (int i = 0; i < 64; ++i) {
    n.input.push_back(id('x', i));
    n.hidden.push_back(id('h', i));
    n.output.push_back(id('o', i));
  }
  GeneralInput in;
  in.base.topology = dense_topology(n, receipt::topology::BiasSharing::per_layer, edge, "bh", "bo");
  in.base.learning_rate = 0.1;
  for (int i = 0; i < 64; ++i) {
    in.base.inputs.push_back(0.01 * i);
    in.base.targets.push_back(i % 2);
  }
  for (std::size_t k = 0; k < in.base.topology.parameter_order.size(); ++k) {
    in.base.parameters_before.push_back(0.001 * static_cast<double>(k % 97) - 0.05);
  }
  in.base.numeric_policy = numeric_policy(1e-12, 1e-8);
  in.base.bias_policy = constant_bias_policy_v03();
  return in;
}

void BM_compute_step_wide(benchmark::State& state) {
  const GeneralInput in = wide();
  auto ix = receipt::topology::index_topology(in.base.topology);
  StepCore core;
  for (auto _ : state) {
    compute_step(in.base.topology, *ix, in.base.bias_policy.mode, in.base.inputs.data(), in.base.targets.data(),
                 in.base.parameters_before.data(), core);
    benchmark::DoNotOptimize(core.loss_total);
  }
}
BENCHMARK(BM_compute_step_wide);

void BM_typed_step_wide(benchmark::State& state) {
  const auto in = std::make_shared<const GeneralInput>(wide());
  for (auto _ : state) benchmark::DoNotOptimize(compute_general_step(in));
}
BENCHMARK(BM_typed_step_wide)->Unit(benchmark::kMicrosecond);

void BM_typed_step_and_emit_wide(benchmark::State& state) {
  const auto in = std::make_shared<const GeneralInput>(wide());
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto r = compute_general_step(in);
    auto text = receipt::emit::emit_receipt_line(*r);
    bytes = text->size();
    benchmark::DoNotOptimize(text);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
}
BENCHMARK(BM_typed_step_and_emit_wide)->Unit(benchmark::kMicrosecond);

void BM_document_step_wide(benchmark::State& state) {
  const GeneralInput in = wide();
  for (auto _ : state) benchmark::DoNotOptimize(run_general_step(in));
}
BENCHMARK(BM_document_step_wide)->Unit(benchmark::kMicrosecond);

void BM_document_step_and_emit_wide(benchmark::State& state) {
  const GeneralInput in = wide();
  for (auto _ : state) {
    auto r = run_general_step(in);
    benchmark::DoNotOptimize(receipt::emit::emit_receipt_line(*r));
  }
}
BENCHMARK(BM_document_step_and_emit_wide)->Unit(benchmark::kMicrosecond);

void BM_generate_and_emit_iris(benchmark::State& state) {
  for (auto _ : state) {
    auto r = generate_builtin("iris");
    benchmark::DoNotOptimize(receipt::emit::emit_receipts(*r));
  }
}
BENCHMARK(BM_generate_and_emit_iris);

}  // namespace

BENCHMARK_MAIN();
