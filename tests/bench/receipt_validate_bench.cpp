// JSON-Schema validation of a 6 MB receipt (a 64-64-64 sigmoid network, one step: arrays of
// 8k parameter ids) and of its 1.5 MB topology+input config, old against new in the same run:
//   BM_validate_receipt_64_walking    the validator that walked the schema document per value
//                                     (tests/receipt/schema/legacy_validator.hpp)
//   BM_validate_receipt_64_compiled   receipt::schema::validate (the registry's compiled schema)
//   BM_validate_input_64_walking / _compiled   the same on the config (topology-input v0.4.0)
//   BM_bp_validate_receipt_64_process          one `bp validate <6 MB file>` process
//   BM_reference_validate_receipt_64_process   the same through `node <reference>/dist/bin/bp.js`
// Counters: "ratio_vs_walking" = walking time / compiled time (the walking validator measured
// in the same process just before); "ratio_vs_reference" = reference process time / bp process
// time (the reference measured in the same run). Above 1: the new one is faster.
// The reference is the one the compat tests install in <build>/reference; without it (or node)
// the reference benchmark is skipped and no reference ratio is reported.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/schema/legacy_validator.hpp"
#include "receipt/schema/schema_registry.hpp"
#include "receipt/schema/validator.hpp"
#include "receipt/topology/parse_topology_input.hpp"

extern char** environ;

namespace {

using ojson = nlohmann::ordered_json;

const std::string kBinaryDir = SUITE_BINARY_DIR;
const std::string kBp = kBinaryDir + "/apps/bp/bp";
const std::string kReferenceCli = kBinaryDir + "/reference/node_modules/@mcptoolshop/backprop-trace/dist/bin/bp.js";

bool exists(const std::string& p) { return ::access(p.c_str(), F_OK) == 0; }

bool run_quiet(const std::vector<std::string>& args) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return false;
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double seconds(const std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The iris sample widened to 64 inputs, 64 hidden and 64 output units (8,194 parameters).
ojson wide_config() {
  auto doc = receipt::engine::scaffold_topology("iris");
  if (!doc) return nullptr;
  ojson d = std::move(doc.value());
  constexpr int kWidth = 64;
  std::vector<std::string> in, hidden, out;
  for (int i = 1; i <= kWidth; ++i) {
    in.push_back("f" + std::to_string(i));
    hidden.push_back("h" + std::to_string(i));
    out.push_back("o" + std::to_string(i));
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
  return *receipt::schema::find_schema(receipt::schema::pick_receipt_version(receipt));
}

// Seconds per walking validation of `doc`, measured once per document.
double walking_seconds(const ojson& schema, const ojson& doc) {
  int runs = 0;
  const auto t0 = std::chrono::steady_clock::now();
  do {
    benchmark::DoNotOptimize(receipt::schema::legacy::validate(schema, doc, 1));
    ++runs;
  } while (seconds(t0) < 2.0 && runs < 3);
  return seconds(t0) / runs;
}

void validate_walking(benchmark::State& state, bool receipt) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const ojson& doc = receipt ? f.receipt : f.config;
  const ojson& schema = receipt ? schema_of(doc) : *receipt::schema::find_schema("topology-input.v0.4.0");
  for (auto _ : state) {
    auto errors = receipt::schema::legacy::validate(schema, doc, 1);
    if (!errors.empty()) return state.SkipWithError(errors.front().to_string().c_str());
  }
}

void validate_compiled(benchmark::State& state, bool receipt) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const ojson& doc = receipt ? f.receipt : f.config;
  const ojson& schema = receipt ? schema_of(doc) : *receipt::schema::find_schema("topology-input.v0.4.0");
  const double walking = walking_seconds(schema, doc);
  benchmark::DoNotOptimize(receipt::schema::validate(schema, doc));  // compiles the schema, once
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    auto errors = receipt::schema::validate(schema, doc, 1);
    if (!errors.empty()) return state.SkipWithError(errors.front().to_string().c_str());
  }
  const double per_run = seconds(t0) / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  state.counters["walking_ms"] = walking * 1e3;
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

bool reference_available() { return exists(kReferenceCli) && run_quiet({"node", "--version"}); }

std::optional<double> reference_validate_seconds() {
  static const std::optional<double> value = []() -> std::optional<double> {
    const auto& f = fixture();
    if (!f.error.empty() || !reference_available()) return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int kRuns = 3;
    for (int i = 0; i < kRuns; ++i)
      if (!run_quiet({"node", kReferenceCli, "validate", f.receipt_path})) return std::nullopt;
    return seconds(t0) / kRuns;
  }();
  return value;
}

void BM_bp_validate_receipt_64_process(benchmark::State& state) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  if (!exists(kBp)) return state.SkipWithError("bp is not built");
  const auto ref = reference_validate_seconds();
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run_quiet({kBp, "validate", f.receipt_path})) return state.SkipWithError("bp validate failed");
    const double s = seconds(t0);
    state.SetIterationTime(s);
    total += s;
  }
  if (ref && state.iterations() > 0) {
    state.counters["reference_ms"] = *ref * 1e3;
    state.counters["ratio_vs_reference"] = *ref / (total / static_cast<double>(state.iterations()));
  }
}
BENCHMARK(BM_bp_validate_receipt_64_process)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_reference_validate_receipt_64_process(benchmark::State& state) {
  const auto& f = fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  if (!reference_available())
    return state.SkipWithError("reference not installed (run the bp_reference_install test) or node missing");
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run_quiet({"node", kReferenceCli, "validate", f.receipt_path}))
      return state.SkipWithError("reference validate failed");
    state.SetIterationTime(seconds(t0));
  }
}
BENCHMARK(BM_reference_validate_receipt_64_process)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
