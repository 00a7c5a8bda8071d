// Versions are deltas: each authored version differs from the one before it by
// exactly the change it documents, seen through our validator.
#include <doctest/doctest.h>

#include <string>

#include "schema_authoring/families.hpp"
#include "schema_registry/validator.hpp"

namespace {

using schema_authoring::Json;
using schema_authoring::SchemaDocument;

const SchemaDocument& find(const std::vector<SchemaDocument>& docs, const std::string& name) {
  for (const auto& d : docs)
    if (d.name() == name) return d;
  FAIL("no authored schema " << name);
  return docs.front();
}

// The document's cross-field rules (root "allOf") alone, applied to `instance`.
bool rules_accept(const SchemaDocument& doc, const char* instance) {
  const Json rules{{"allOf", doc.json().at("allOf")}};
  return schema_registry::is_valid(rules, Json::parse(instance));
}

}  // namespace

TEST_CASE("authoring versions: receipt v0.8.0 lifts the ban on momentum with weight decay, v0.7.0 keeps it") {
  const auto receipts = schema_authoring::receipt_schemas();
  REQUIRE(receipts.size() == 8);
  const char* momentum_with_decay =
      R"({"optimizer_config":{"name":"sgd_momentum","learning_rate":0.1,"momentum":0.9,"weight_decay":0.01}})";
  CHECK_FALSE(rules_accept(find(receipts, "receipt.v0.6.0"), momentum_with_decay));
  CHECK_FALSE(rules_accept(find(receipts, "receipt.v0.7.0"), momentum_with_decay));
  CHECK(rules_accept(find(receipts, "receipt.v0.8.0"), momentum_with_decay));
  // The rule's place is kept: allOf has as many entries in v0.8.0 as in v0.7.0.
  CHECK(find(receipts, "receipt.v0.8.0").json()["allOf"].size() ==
        find(receipts, "receipt.v0.7.0").json()["allOf"].size());
}

TEST_CASE(
    "authoring versions: trace v0.7.0 wants trace_id and step_index together, v0.6.0 only step_index -> trace_id") {
  const auto traces = schema_authoring::framework_trace_schemas();
  REQUIRE(traces.size() == 8);
  CHECK(rules_accept(find(traces, "framework-trace.v0.6.0"), R"({"trace_id":"0123"})"));
  CHECK_FALSE(rules_accept(find(traces, "framework-trace.v0.7.0"), R"({"trace_id":"0123"})"));
  CHECK_FALSE(rules_accept(find(traces, "framework-trace.v0.6.0"), R"({"step_index":1})"));
}

TEST_CASE("authoring versions: receipt v0.2.0 drops the Mazur names and adds trace_id after learning_rate") {
  const auto receipts = schema_authoring::receipt_schemas();
  const Json v1 = find(receipts, "receipt.v0.1.0").json();
  const Json v2 = find(receipts, "receipt.v0.2.0").json();
  CHECK(v1["$defs"].contains("InputsMazur"));
  CHECK_FALSE(v2["$defs"].contains("InputsMazur"));
  const auto& order = v2["x-order"];
  std::size_t lr = 0, tid = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] == "learning_rate") lr = i;
    if (order[i] == "trace_id") tid = i;
  }
  CHECK(tid == lr + 1);
  CHECK(v1["properties"]["inputs"] == Json::parse(R"({"$ref":"#/$defs/InputsMazur"})"));
  CHECK(v2["properties"]["inputs"] == Json::parse(R"({"$ref":"#/$defs/UnitNumberMap"})"));
}
