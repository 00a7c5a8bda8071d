#include "schema_registry/schema_registry.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "schema_registry/embedded_schemas.hpp"
#include "support/suite_paths.hpp"

namespace fs = std::filesystem;

TEST_CASE("schema_registry: every wire format version is embedded") {
  const auto names = schema_registry::schema_names();
  for (const char* v : {"0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0"}) {
    CAPTURE(v);
    CHECK(schema_registry::find_schema(std::string("receipt.v") + v) != nullptr);
    CHECK(schema_registry::find_schema(std::string("framework-trace.v") + v) != nullptr);
  }
  CHECK(schema_registry::find_schema("topology-input.v0.4.0") != nullptr);
  CHECK(schema_registry::find_schema("nltrain-state.v0.1.0") != nullptr);
  CHECK(schema_registry::find_schema("nltrain-state-result.v0.1.0") != nullptr);
  CHECK(schema_registry::find_schema("nltrain-metrics.v0.1.0") != nullptr);
  CHECK(schema_registry::find_schema("tensor-step.v0.2.0") != nullptr);
  CHECK(schema_registry::find_schema("atenia-scenario.v0.1.0") != nullptr);
  CHECK(schema_registry::find_schema("atenia-place-result.v0.1.0") != nullptr);
  for (const char* n : {"nltrain-train-result", "nltrain-eval-result", "nltrain-generate-result", "nltrain-gradcheck-result",
                        "bp-error", "bp-verify-report", "bp-verify-multi-report", "bp-verify-batch-record",
                        "bp-reconcile-result", "bp-validate-result", "bp-import-report", "bp-generate-result",
                        "bp-scaffold-result", "tensor-step", "bp-verify-nltrain-report", "bp-verify-tensor-report"}) {
    CAPTURE(n);
    CHECK(schema_registry::find_schema(std::string(n) + ".v0.1.0") != nullptr);
  }
  CHECK(names.size() == 51);
  CHECK(schema_registry::receipt_versions().size() == 8);
}

TEST_CASE("schema_registry: lookup by version, name or file name") {
  const auto* by_version = schema_registry::find_schema("0.8.0");
  REQUIRE(by_version != nullptr);
  CHECK(by_version == schema_registry::find_schema("receipt.v0.8.0"));
  CHECK(by_version == schema_registry::find_schema("receipt.v0.8.0.json"));
  CHECK((*by_version)["properties"]["schema_version"]["const"] == "0.8.0");
  CHECK(schema_registry::find_schema("0.9.0") == nullptr);
  CHECK(schema_registry::find_schema("receipt") == nullptr);
  CHECK(schema_registry::find_schema("") == nullptr);
}

TEST_CASE("schema_registry: embedded text is exactly schemas/*.json") {
  std::size_t seen = 0;
  for (const auto& e : schema_registry::embedded_schemas()) {
    CAPTURE(e.name);
    const fs::path p = fs::path(suite_test::source_dir()) / "schemas" / (std::string(e.name) + ".json");
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str() == e.text);
    ++seen;
  }
  std::size_t on_disk = 0;
  for (const auto& f : fs::directory_iterator(fs::path(suite_test::source_dir()) / "schemas"))
    on_disk += f.path().extension() == ".json" ? 1 : 0;
  CHECK(seen == on_disk);
}

TEST_CASE("schema_registry: version dispatch follows the reference") {
  using nlohmann::ordered_json;
  bool known = true;
  CHECK(schema_registry::pick_receipt_version(ordered_json{{"schema_version", "0.5.0"}}, &known) == "0.5.0");
  CHECK(known);
  CHECK(schema_registry::pick_receipt_version(ordered_json{{"schema_version", "9.9.9"}}, &known) == "0.2.0");
  CHECK_FALSE(known);
  CHECK(schema_registry::pick_receipt_version(ordered_json::array()) == "0.2.0");
  CHECK(schema_registry::pick_framework_trace_version(ordered_json{{"format", "framework-trace.v0.7.0"}}) == "0.7.0");
  CHECK(schema_registry::pick_framework_trace_version(ordered_json{{"format", "framework-trace.v9"}}) == "0.1.0");
}
