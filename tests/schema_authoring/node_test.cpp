// The schema builder (schema_authoring/node.hpp): what its nodes accept and
// reject in our validator, and how edits keep "required" and "x-order" in step.
#include <doctest/doctest.h>

#include <string>

#include "schema_authoring/node.hpp"
#include "schema_authoring/optimizer_rules.hpp"
#include "schema_registry/validator.hpp"

namespace {

using schema_authoring::Json;
using namespace schema_authoring;

// First error as "path: message", or "" when valid.
std::string verdict(const Node& schema, const char* instance) {
  const auto errors = schema_registry::validate(schema.json(), Json::parse(instance));
  return errors.empty() ? "" : errors.front().where().json_path + ": " + errors.front().message();
}

}  // namespace

TEST_CASE("authoring: a closed object rejects unknown keys, an open one accepts them") {
  Node open = object().field("a", integer().min(1)).optional("b", string());
  Node closed = open;
  closed.closed();
  CHECK(verdict(closed, R"({"a":1,"b":"x"})") == "");
  CHECK(verdict(closed, R"({"a":1,"z":2})") == ": must NOT have additional properties ('z')");
  CHECK(verdict(open, R"({"a":1,"z":2})") == "");
  CHECK(verdict(closed, R"({"b":"x"})") == ": must have required property 'a'");
  CHECK(verdict(closed, R"({"a":0})") == "/a: must be >= 1");
}

TEST_CASE("authoring: inserted fields keep required and x-order in field order") {
  Node n = object().field("a", number()).field("c", number()).ordered();
  n.field_after("a", "b", number()).optional_after("c", "d", string());
  CHECK(n.json()["x-order"] == Json::parse(R"(["a","b","c","d"])"));
  CHECK(n.json()["required"] == Json::parse(R"(["a","b","c"])"));
  n.remove("b");
  CHECK(n.json()["x-order"] == Json::parse(R"(["a","c","d"])"));
  CHECK(n.json()["required"] == Json::parse(R"(["a","c"])"));
  CHECK(verdict(n, R"({"a":1,"c":2})") == "");
  CHECK_THROWS_AS(n.field_after("nope", "e", number()), std::logic_error);
}

TEST_CASE("authoring: map_of checks every value and the bound on entries") {
  Node m = map_of(number()).max_properties(2);
  CHECK(verdict(m, R"({"x":1,"y":2.5})") == "");
  CHECK(verdict(m, R"({"x":1,"y":"2"})") == "/y: must be number");
  CHECK(verdict(m, R"({"x":1,"y":2,"z":3})") == ": must NOT have more than 2 properties");
}

TEST_CASE("authoring: optimizer rules require settings by name, and nothing for other names") {
  Node root = object().optional("opt", object()).all_of({adam_needs_hyperparameters("opt")});
  CHECK(verdict(root, R"({"opt":{"name":"sgd","learning_rate":0.1}})") == "");
  CHECK(verdict(root, R"({"opt":{"name":"adam","learning_rate":0.1}})") == "/opt: must have required property 'beta1'");
  CHECK(verdict(root,
                R"({"opt":{"name":"adam","learning_rate":0.1,"beta1":0.9,"beta2":0.999,"epsilon":1e-8,"t":1}})") == "");
  CHECK(verdict(root, R"({})") == "");
}

TEST_CASE("authoring: step identity rules of receipts and of v0.7 traces differ") {
  Node receipt = object().all_of(trace_id_and_step_index_go_together());
  Node trace = object().all_of({trace_id_and_step_index_both_or_neither()});
  for (const Node* n : {&receipt, &trace}) {
    CHECK(verdict(*n, R"({})") == "");
    CHECK(verdict(*n, R"({"trace_id":"t","step_index":0})") == "");
    CHECK(verdict(*n, R"({"step_index":0})") != "");
    CHECK(verdict(*n, R"({"trace_id":"t"})") != "");
  }
  Node early_trace = object().all_of({step_index_needs_trace_id()});
  CHECK(verdict(early_trace, R"({"trace_id":"t"})") == "");
  CHECK(verdict(early_trace, R"({"step_index":0})") != "");
}
