#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "support/suite_paths.hpp"

using nlohmann::ordered_json;

namespace {

ordered_json read_config(const std::string& name) {
  const std::string path = suite_test::source_dir() + "/fixtures/configs/" + name + ".json";
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  auto doc = common::parse_json_text(ss.str(), {.file = path, .bom = common::BomPolicy::strip});
  REQUIRE_MESSAGE(doc.ok(), path);
  return *doc;
}

template <class Receipts>
std::string emit(const Receipts& receipts) {
  auto bytes = receipt::emit::emit_receipts(receipts);
  REQUIRE_MESSAGE(bytes.ok(), (bytes.ok() ? "" : bytes.error().to_string()));
  return *bytes;
}

std::vector<ordered_json> docs(const std::vector<receipt::engine::EngineReceipt>& receipts) {
  std::vector<ordered_json> out;
  for (const auto& r : receipts) out.push_back(receipt::engine::to_json(r));
  return out;
}

}  // namespace

TEST_CASE("generate: fixtures/configs give the same receipts as the builtin generators") {
  for (const char* name : {"xor", "iris", "xor-per-neuron-bias"}) {
    CAPTURE(name);
    auto input = receipt::topology::parse_topology_input(read_config(name), name);
    REQUIRE_MESSAGE(input.ok(), (input.ok() ? "" : input.error().to_string()));
    auto from_config = receipt::engine::generate_from_config(*input);
    REQUIRE(from_config.ok());
    auto builtin = receipt::engine::generate_builtin(name);
    REQUIRE(builtin.ok());
    CHECK(emit(*from_config) == emit(*builtin));
  }
}

TEST_CASE("generate: scaffolds parse back and run") {
  for (const char* name : {"mazur", "xor", "iris"}) {
    CAPTURE(name);
    auto scaffold = receipt::engine::scaffold_topology(name);
    REQUIRE(scaffold.ok());
    CHECK(*scaffold == read_config(name));  // the committed configs are the scaffolds
    auto input = receipt::topology::parse_topology_input(*scaffold, name);
    REQUIRE(input.ok());
    auto receipts = receipt::engine::generate_from_config(*input);
    REQUIRE(receipts.ok());
    CHECK(docs(*receipts)[0]["schema_version"] == "0.2.0");
  }
  // The general engine on Mazur's scaffold reproduces the v0.1.0 engine's numbers.
  auto general = receipt::engine::generate_from_config(
      *receipt::topology::parse_topology_input(*receipt::engine::scaffold_topology("mazur"), "mazur"));
  auto mazur = receipt::engine::generate_builtin("mazur");
  REQUIRE(general.ok());
  REQUIRE(mazur.ok());
  const auto g = docs(*general);
  const auto m = docs(*mazur);
  CHECK(g[0]["post_update_loss"]["total"] == m[0]["post_update_loss"]["total"]);
  CHECK(g[0]["parameters_after"] == m[0]["parameters_after"]);
  CHECK_FALSE(receipt::engine::scaffold_topology("softmax").ok());
}

TEST_CASE("generate: builtins and their shapes") {
  for (const auto name : receipt::engine::builtin_names()) {
    CAPTURE(std::string(name));
    auto r = receipt::engine::generate_builtin(name);
    REQUIRE(r.ok());
    CHECK_FALSE(emit(*r).empty());
  }
  auto run = receipt::engine::generate_builtin("xor-multi-step");
  REQUIRE(run.ok());
  REQUIRE(run->size() == 2);
  const auto multi = docs(*run);
  CHECK(multi[1]["step_index"] == 1);
  CHECK(multi[1]["step"] == 2);
  CHECK(multi[1]["fixture"] == "xor-multi-step-step-1");
  // Step 2 starts exactly where step 1 ended.
  CHECK(multi[1]["parameters_before"] == multi[0]["parameters_after"]);
  auto bad = receipt::engine::generate_builtin("nope");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == common::ErrorCode::invalid_argument);
}
