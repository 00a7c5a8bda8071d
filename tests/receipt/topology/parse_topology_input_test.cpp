#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "receipt/engine/generate.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "receipt/topology/parse_topology_input.hpp"

using nlohmann::json;
using receipt::topology::parse_topology_input;

namespace {

json xor_config() {
  auto s = receipt::engine::scaffold_topology("xor");
  REQUIRE(s.ok());
  return json(*s);
}

// Parses `doc` and returns the error's JSON path ("" when it parsed).
std::string error_path(const json& doc) {
  auto r = parse_topology_input(doc, "cfg.json");
  if (r.ok()) return "";
  CHECK(r.error().where().file == "cfg.json");
  return r.error().where().json_path;
}

}  // namespace

TEST_CASE("parse_topology_input: the xor scaffold parses with its values in order") {
  auto r = parse_topology_input(xor_config(), "xor.json");
  REQUIRE(r.ok());
  CHECK(r->topology.unit_order.input == std::vector<std::string>{"x1", "x2"});
  CHECK(r->inputs == std::vector<double>{1, 0});
  CHECK(r->parameters_before.size() == 8);
  CHECK(r->parameters_before[7] == 0.2);
  CHECK(r->fixture == "xor-sigmoid-engine-first-run");
  CHECK(r->numeric_policy.json["tolerance"]["rtol"].is_number_float());
  CHECK_FALSE(r->step_index.has_value());
}

TEST_CASE("parse_topology_input: unknown keys are refused with their path") {
  json doc = xor_config();
  doc["forward"] = json::object();  // a receipt-only field
  CHECK(error_path(doc) == "/forward");
  doc = xor_config();
  doc["topology"]["parameters"][2]["weight"] = 1;
  CHECK(error_path(doc) == "/topology/parameters/2/weight");
  doc = xor_config();
  doc["inputs"]["x3"] = 1;  // the reference ignores this; a misspelt id should not pass silently
  CHECK(error_path(doc) == "/inputs/x3");
}

TEST_CASE("parse_topology_input: wrong types, missing keys and non-finite numbers") {
  json doc = xor_config();
  doc["learning_rate"] = "0.5";
  CHECK(error_path(doc) == "/learning_rate");
  doc = xor_config();
  doc["learning_rate"] = 0;
  CHECK(error_path(doc) == "/learning_rate");
  doc = xor_config();
  doc["parameters_before"]["w_h1_y"] = std::numeric_limits<double>::quiet_NaN();
  CHECK(error_path(doc) == "/parameters_before/w_h1_y");
  doc = xor_config();
  doc["targets"]["y"] = std::numeric_limits<double>::infinity();
  CHECK(error_path(doc) == "/targets/y");
  doc = xor_config();
  doc["parameters_before"].erase("b_output");
  CHECK(error_path(doc) == "/parameters_before");
  doc = xor_config();
  doc["topology"]["activation_hidden"] = "tanh";
  CHECK(error_path(doc) == "/topology/activation_hidden");
  doc = xor_config();
  doc["topology"]["activation_output"] = "softmax";  // receipts may, the input schema may not
  CHECK(error_path(doc) == "/topology/activation_output");
  doc = xor_config();
  doc["numeric_policy"].erase("byte_output");
  CHECK(error_path(doc) == "/numeric_policy");
  doc = xor_config();
  doc["numeric_policy"]["tolerance"]["atol"] = 1;
  CHECK(error_path(doc) == "/numeric_policy/tolerance/atol");
  doc = xor_config();
  doc["topology"]["unit_order"]["hidden"][1] = "2h";
  CHECK(error_path(doc) == "/topology/unit_order/hidden/1");
}

TEST_CASE("parse_topology_input: absurd sizes are refused before anything is allocated") {
  json doc = xor_config();
  doc["topology"]["hidden_size"] = 1000000000;  // 10^9 units
  CHECK(error_path(doc) == "/topology/hidden_size");
  doc = xor_config();
  doc["topology"]["input_size"] = 65;  // above the schema's 64
  CHECK(error_path(doc) == "/topology/input_size");
  doc = xor_config();
  doc["topology"]["unit_order"]["input"] = json::array();
  for (int i = 0; i < 100; ++i) {
    std::string unit = "u";  // appended: a literal + a temporary draws GCC 12's false -Wrestrict at -O3
    unit += std::to_string(i);
    doc["topology"]["unit_order"]["input"].push_back(unit);
  }
  CHECK(error_path(doc) == "/topology/unit_order/input");
  doc = xor_config();
  doc["topology"]["input_size"] = 2.5;
  CHECK(error_path(doc) == "/topology/input_size");
}

TEST_CASE("parse_topology_input: topology consistency errors are invalid_argument with a path") {
  json doc = xor_config();
  doc["topology"]["hidden_size"] = 3;
  auto r = parse_topology_input(doc, "cfg.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().where().json_path == "/topology/unit_order/hidden");
  doc = xor_config();
  doc["topology"]["parameters"][1]["from_unit"] = "x1";  // duplicate edge x1 -> h1
  CHECK(error_path(doc) == "/topology/parameters/1");
  doc = xor_config();
  doc["topology"]["parameter_order"][0] = "w_zzz";
  CHECK(error_path(doc) == "/topology/parameters/0/id");
  doc = xor_config();
  doc["bias_policy"]["mode"] = "sgd";  // per_layer biases cannot take sgd updates
  CHECK(error_path(doc) == "/bias_policy/mode");
}

TEST_CASE("parse_topology_input: trace_id and step_index") {
  json doc = xor_config();
  doc["trace_id"] = "0123456789abcdef0123456789abcdef";
  CHECK(error_path(doc) == "/trace_id");  // step_index missing
  doc["step_index"] = 4;
  auto r = parse_topology_input(doc, "cfg.json");
  REQUIRE(r.ok());
  CHECK(r->step_index == 4);
  auto receipts = receipt::engine::generate_from_config(*r);
  REQUIRE(receipts.ok());
  CHECK(receipt::engine::to_json((*receipts)[0])["step"] == 5);  // step = step_index + 1
  doc["trace_id"] = "0123456789ABCDEF0123456789abcdef";
  CHECK(error_path(doc) == "/trace_id");
  doc["trace_id"] = "0123456789abcdef0123456789abcdef";
  doc["step_index"] = -1;
  CHECK(error_path(doc) == "/step_index");
}

TEST_CASE("parse_topology_input: defaults for missing metadata and fixture; extra metadata dropped") {
  json doc = xor_config();
  doc.erase("metadata");
  doc.erase("fixture");
  auto r = parse_topology_input(doc, "cfg.json");
  REQUIRE(r.ok());
  auto receipts = receipt::engine::generate_from_config(*r);
  REQUIRE(receipts.ok());
  CHECK(receipt::engine::to_json((*receipts)[0])["fixture"] == "general-engine-first-run");
  CHECK(receipt::engine::to_json((*receipts)[0])["metadata"]["source"] == "src/general-engine.ts (generalized backprop engine first-run)");
  doc = xor_config();
  doc["metadata"]["author"] = "someone";
  r = parse_topology_input(doc, "cfg.json");
  REQUIRE(r.ok());
  receipts = receipt::engine::generate_from_config(*r);
  REQUIRE(receipts.ok());
  CHECK_FALSE(receipt::engine::to_json((*receipts)[0])["metadata"].contains("author"));
  doc["metadata"].erase("source");
  CHECK(error_path(doc) == "/metadata");
}

TEST_CASE("parse_topology_input: schema violations are malformed, engine-level problems invalid_argument") {
  const auto code = [](const json& doc) {
    auto r = parse_topology_input(doc, "cfg.json");
    REQUIRE_FALSE(r.ok());
    return r.error().code();
  };
  json doc = xor_config();
  doc["extra"] = 1;
  CHECK(code(doc) == common::ErrorCode::malformed);
  doc = xor_config();
  doc["numeric_policy"].erase("computation_order");
  CHECK(code(doc) == common::ErrorCode::invalid_argument);
  doc = xor_config();
  doc["inputs"].erase("x2");
  CHECK(code(doc) == common::ErrorCode::invalid_argument);
  doc = xor_config();
  doc["topology"]["parameter_order"][1] = "w_x1_h1";
  CHECK(code(doc) == common::ErrorCode::malformed);  // uniqueItems
}
