// Reading and schema-checking one `bp verify multi` record (a 7 KB receipt of a bundle_gen bundle,
// XOR 2-2-1), the tree reader against the arena reader in the same run:
//   BM_record_tree       common::parse_json_text, schema_registry::validate on the ordered_json,
//                        common::release_json: what verify multi does before its rules today
//   BM_record_document   common::parse_json_document, the same validation on its JsonView
// Counters: "us_per_record" (thread CPU time), and on BM_record_document "ratio_vs_tree" = the
// tree's CPU time per record / the document's (measured just before in the same process; above 1
// the document is faster).
#include <benchmark/benchmark.h>

#include <time.h>

#include <fstream>
#include <string>

#include "bench/reference_process.hpp"
#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "common/json_release.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"

namespace {

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The second record of a generated bundle (the first starts the chain), or "" without bundle_gen.
const std::string& record() {
  static const std::string line = [] {
    const std::string path = bench::generated_bundle(2, "common_json_document_bench");
    std::ifstream in(path);
    std::string first, second;
    std::getline(in, first);
    std::getline(in, second);
    return second;
  }();
  return line;
}

const nlohmann::ordered_json* receipt_schema() {
  static const nlohmann::ordered_json* schema = [] {
    auto doc = common::parse_json_text(record());
    return doc ? schema_registry::find_schema(schema_registry::pick_receipt_version(*doc)) : nullptr;
  }();
  return schema;
}

double tree_us_per_record = 0;

void BM_record_tree(benchmark::State& state) {
  if (record().empty() || receipt_schema() == nullptr) return state.SkipWithError("bundle_gen is not built");
  const double c0 = thread_cpu_seconds();
  for (auto _ : state) {
    auto doc = common::parse_json_text(record());
    if (!doc || !schema_registry::validate(*receipt_schema(), *doc).empty()) return state.SkipWithError("invalid");
    common::release_json(*doc);
  }
  tree_us_per_record = (thread_cpu_seconds() - c0) * 1e6 / static_cast<double>(state.iterations());
  state.counters["us_per_record"] = tree_us_per_record;
  state.counters["record_bytes"] = static_cast<double>(record().size());
}

void BM_record_document(benchmark::State& state) {
  if (record().empty() || receipt_schema() == nullptr) return state.SkipWithError("bundle_gen is not built");
  const double c0 = thread_cpu_seconds();
  for (auto _ : state) {
    auto doc = common::parse_json_document(record());
    if (!doc || !schema_registry::validate(*receipt_schema(), doc->root()).empty()) {
      return state.SkipWithError("invalid");
    }
    benchmark::DoNotOptimize(doc->node_count());
  }
  const double us = (thread_cpu_seconds() - c0) * 1e6 / static_cast<double>(state.iterations());
  state.counters["us_per_record"] = us;
  if (tree_us_per_record > 0) state.counters["ratio_vs_tree"] = tree_us_per_record / us;
}

BENCHMARK(BM_record_tree)->MinTime(1.0);
BENCHMARK(BM_record_document)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
