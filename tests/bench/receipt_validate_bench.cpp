// JSON-Schema validation of a 6 MB receipt (a 64-64-64 sigmoid network, one step: arrays of
// 8k parameter ids) and of its 1.5 MB topology+input config, old against new in the same run:
//   BM_validate_receipt_64_walking    the validator that walked the schema document per value
//                                     (tests/receipt/schema/legacy_validator.hpp)
//   BM_validate_receipt_64_compiled   schema_registry::validate (the registry's compiled schema)
//   BM_validate_input_64_walking / _compiled   the same on the config (topology-input v0.4.0)
//   BM_bp_validate_receipt_64_process          one `bp validate <6 MB file>` process
//   BM_bp_verify_general_64_process            one `bp verify general <6 MB file>` process
//   BM_reference_validate_receipt_64_process   the same through `node <reference>/dist/bin/bp.js`
// Counters: "ratio_vs_walking" = walking CPU time / compiled CPU time (the walking validator
// measured in the same process just before; thread CPU time, so that a busy machine does not
// skew it); "ratio_vs_reference" = reference process wall time / bp process wall time and
// "cpu_ratio_vs_reference" the same in CPU time (user + system of the child processes), the
// reference measured in the same run. Above 1: the new one is faster.
// The reference is the one the compat tests install in <build>/reference; without it (or node)
// the reference benchmark is skipped and no reference ratio is reported.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bench/reference_process.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/schema/legacy_validator.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "receipt/topology/parse_topology_input.hpp"

namespace {

using ojson = nlohmann::ordered_json;
using bench::exists;
using bench::kBp;
using bench::kReferenceCli;
using bench::reference_available;
using bench::run_quiet;

double seconds(const std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The iris sample widened to 64 inputs, 64 hidden and 64 output units (8,194 parameters).
ojson wide_config() {
  auto doc = receipt::engine::scaffold_topology("iris");
  if (!doc) return nullptr;
  ojson d = std::move(doc.value());
  constexpr int kWidth = 64;
  std::vector<std::string> in, hidden, out;
  for (int i = 1; i <= kWidth; ++i) {
    const std::string n = std::to_string(i);  // (no "f" + n: GCC 12 warns -Wrestrict on it)
    in.push_back(std::string("f").append(n));
    hidden.push_back(std::string("h").append(n));
    out.push_back(std::string("o").append(n));
  }
  ojson& t = d["topology"];
  t["unit_order"] = ojson{{"input", in}, {"hidden", hidden}, {"output", out}};
  ojson order = ojson::array(), params = ojson::array();
  auto weight = [&](const std::string& from, const std::string& to, const char* role) {
    const std::string id = "w_" + from + "_" + to;
    order.push_back(id);
    params.push_back(ojson{{"id", id}, {"role", role}, {"from_unit", from}, {"to_unit", to}});
  };
  for (const auto& h : hidden)
    for (const auto& f : in) weight(f, h, "input_to_hidden_weight");
  for (const auto& o : out)
    for (const auto& h : hidden) weight(h, o, "hidden_to_output_weight");
  order.push_back("b_hidden");
  order.push_back("b_output");
  params.push_back(ojson{{"id", "b_hidden"}, {"role", "hidden_bias"}, {"applies_to_units", hidden}});
  params.push_back(ojson{{"id", "b_output"}, {"role", "output_bias"}, {"applies_to_units", out}});
  t["parameter_order"] = order;
  t["parameters"] = params;
  t["input_size"] = kWidth;
  t["hidden_size"] = kWidth;
  t["output_size"] = kWidth;
  ojson inputs = ojson::object(), targets = ojson::object(), before = ojson::object();
  for (int i = 0; i < kWidth; ++i) inputs[in[i]] = ((i * 37) % 200 - 100) / 100.0;
  for (int i = 0; i < kWidth; ++i) targets[out[i]] = i == 0 ? 1 : 0;
  int k = 0;
  for (const auto& id : order) before[id.get<std::string>()] = ((k++ * 7919) % 400 - 200) / 1000.0;
  d["inputs"] = inputs;
  d["targets"] = targets;
  d["parameters_before"] = before;
  d["fixture"] = "wide-64-64-64";
  return d;
}

struct Fixture {
  ojson config;
  ojson receipt;
  std::string receipt_path;  // the receipt's bytes, for the process benchmarks
  std::string error;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.config = wide_config();
    auto input = receipt::topology::parse_topology_input(nlohmann::json::parse(x.config.dump()), "wide-64-64-64");
    if (!input) return x.error = input.error().to_string(), x;
    auto receipts = receipt::engine::generate_from_config(input.value());
    if (!receipts) return x.error = receipts.error().to_string(), x;
    auto text = receipt::emit::emit_receipts(receipts.value());
    if (!text) return x.error = text.error().to_string(), x;
    x.receipt = ojson::parse(text.value());
    x.receipt_path = (std::filesystem::temp_directory_path() / "bp_validate_bench_64.jsonl").string();
    std::ofstream(x.receipt_path, std::ios::binary) << text.value();
    return x;
  }();
  return f;
}

const ojson& schema_of(const ojson& receipt) {
  return *schema_registry::find_schema(schema_registry::pick_receipt_version(receipt));
}

// CPU seconds per walking validation of `doc`.
double walking_cpu_seconds(const ojson& schema, const ojson& doc) {
  int runs = 0;
  const double c0 = thread_cpu_seconds();
  do {
    benchmark::DoNotOptimize(schema_registry::legacy::validate(schema, doc, 1));
    ++runs;
  } while (thread_cpu_seconds() - c0 < 2.0 && runs < 3);
  return (thread_cpu_seconds() - c0) / runs;
}

void validate_walking(benchmark::State& state, bool receipt) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const ojson& doc = receipt ? f.receipt : f.config;
  const ojson& schema = receipt ? schema_of(doc) : *schema_registry::find_schema("topology-input.v0.4.0");
  for (auto _ : state) {
    auto errors = schema_registry::legacy::validate(schema, doc, 1);
    if (!errors.empty()) return state.SkipWithError(errors.front().to_string().c_str());
  }
}

void validate_compiled(benchmark::State& state, bool receipt) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const ojson& doc = receipt ? f.receipt : f.config;
  const ojson& schema = receipt ? schema_of(doc) : *schema_registry::find_schema("topology-input.v0.4.0");
  const double walking = walking_cpu_seconds(schema, doc);
  benchmark::DoNotOptimize(schema_registry::validate(schema, doc));  // compiles the schema, once
  const double c0 = thread_cpu_seconds();
  for (auto _ : state) {
    auto errors = schema_registry::validate(schema, doc, 1);
    if (!errors.empty()) return state.SkipWithError(errors.front().to_string().c_str());
  }
  const double per_run = (thread_cpu_seconds() - c0) /
                         static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  state.counters["walking_cpu_ms"] = walking * 1e3;
  state.counters["ratio_vs_walking"] = walking / per_run;
  state.SetBytesProcessed(static_cast<std::int64_t>(doc.dump().size()) * state.iterations());
}

void BM_validate_receipt_64_walking(benchmark::State& state) { validate_walking(state, true); }
void BM_validate_receipt_64_compiled(benchmark::State& state) { validate_compiled(state, true); }
void BM_validate_input_64_walking(benchmark::State& state) { validate_walking(state, false); }
void BM_validate_input_64_compiled(benchmark::State& state) { validate_compiled(state, false); }
BENCHMARK(BM_validate_receipt_64_walking)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_validate_receipt_64_compiled)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_validate_input_64_walking)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_validate_input_64_compiled)->Unit(benchmark::kMillisecond)->MinTime(1.0);

struct ProcessTimes {
  double wall = 0, cpu = 0;  // seconds per run
};

// One bp command on the 6 MB receipt, and the exit status each tool gives it: the reference's
// `verify general` exits 1 on this receipt (a 64-wide sum of 9-digit products misses rules 2 and
// 6 at its tolerance), bp's passes it (bp(1): a sum is judged against its terms' size), so each
// run is held to its own tool's status.
struct Command {
  std::vector<std::string> words;
  int status = 0;            // bp's
  int reference_status = 0;  // the reference's
};

const Command kValidate{{"validate"}, 0, 0};
const Command kVerifyGeneral{{"verify", "general"}, 0, 1};

std::vector<std::string> argv_of(const std::string& program, const Command& c, const std::string& file) {
  std::vector<std::string> argv{program};
  if (program == "node") argv.push_back(kReferenceCli);
  argv.insert(argv.end(), c.words.begin(), c.words.end());
  argv.push_back(file);
  return argv;
}

std::optional<ProcessTimes> reference_seconds(const Command& c) {
  const auto& f = fixture();
  if (!f.error.empty() || !reference_available()) return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = bench::children_cpu_seconds();
  constexpr int kRuns = 3;
  for (int i = 0; i < kRuns; ++i)
    if (bench::run_quiet_status(argv_of("node", c, f.receipt_path)) != c.reference_status) return std::nullopt;
  return ProcessTimes{seconds(t0) / kRuns, (bench::children_cpu_seconds() - c0) / kRuns};
}

void bp_process(benchmark::State& state, const Command& c) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  if (!exists(kBp)) return state.SkipWithError("bp is not built");
  const auto ref = reference_seconds(c);
  double total = 0;
  const double c0 = bench::children_cpu_seconds();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (bench::run_quiet_status(argv_of(kBp, c, f.receipt_path)) != c.status) {
      return state.SkipWithError("bp gave another exit status");
    }
    const double s = seconds(t0);
    state.SetIterationTime(s);
    total += s;
  }
  const double n = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  const double cpu = (bench::children_cpu_seconds() - c0) / n;
  state.counters["cpu_ms"] = cpu * 1e3;
  if (ref && state.iterations() > 0) {
    state.counters["reference_ms"] = ref->wall * 1e3;
    state.counters["reference_cpu_ms"] = ref->cpu * 1e3;
    state.counters["ratio_vs_reference"] = ref->wall / (total / n);
    state.counters["cpu_ratio_vs_reference"] = ref->cpu / cpu;
  }
}

void BM_bp_validate_receipt_64_process(benchmark::State& state) { bp_process(state, kValidate); }
BENCHMARK(BM_bp_validate_receipt_64_process)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_bp_verify_general_64_process(benchmark::State& state) { bp_process(state, kVerifyGeneral); }
BENCHMARK(BM_bp_verify_general_64_process)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_reference_validate_receipt_64_process(benchmark::State& state) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  if (!reference_available())
    return state.SkipWithError("reference not installed (run the bp_reference_install test) or node missing");
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run_quiet(argv_of("node", kValidate, f.receipt_path))) return state.SkipWithError("reference validate failed");
    state.SetIterationTime(seconds(t0));
  }
}
BENCHMARK(BM_reference_validate_receipt_64_process)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
