#include "receipt/emit/emit_receipt.hpp"

#include <doctest/doctest.h>

#include <string>

using nlohmann::ordered_json;

namespace {

// A small general receipt (1-1-1 network) with its keys deliberately out of
// canonical order, maps out of declared order, an unknown metadata key, and
// numbers in several spellings.
ordered_json small_receipt() {
  return ordered_json::parse(R"({
    "post_update_loss": {"total": 0.125, "per_output": {"o1": 0.125}, "status": "filled"},
    "post_update_forward": {"o1": {"out": 0.5, "net": 0}, "status": "filled", "h1": {"net": 1, "out": 0.25}},
    "parameters_after": {"w2": 2, "w1": 1},
    "updates": [{"weight_after": 1, "update": 0, "gradient": 0, "optimizer": {"product_order": "left_to_right",
      "factors": [{"value": 0, "name": "g"}], "learning_rate": 0.1, "name": "sgd"}, "weight_before": 1,
      "to_unit": "h1", "from_unit": "x1", "parameter_role": "x1_to_h1", "layer_edge": "input_to_hidden",
      "kind": "weight", "parameter_id": "w1"}],
    "backward": {"hidden_error_signals": {"h1": {"signal_value": 0, "product_order": "p", "activation_derivative": 0.25,
        "backpropagated_sum": 0, "summation_order": ["o1"], "downstream_contributions": []}},
      "output_error_signals": {"o1": {"signal_value": -0.5, "product_order": "p",
        "factors": [{"value": -0.5, "from": "targets.o1", "name": "t"}]}}},
    "loss": {"total": 0.125, "per_output": {"o1": 0.125}},
    "forward": {"o1": {"net": 0, "out": 0.5}, "h1": {"out": 0.25, "net": 1}},
    "parameters_before": {"w2": 2.0, "w1": 1},
    "targets": {"o1": 1},
    "inputs": {"x1": 1e-3},
    "step_index": 0,
    "learning_rate": 0.1,
    "topology": {"bias_sharing": "none", "loss": "half_squared_error", "activation_output": "sigmoid",
      "activation_hidden": "sigmoid", "parameters": [{"role": "w", "id": "w1", "to_unit": "h1", "from_unit": "x1"},
      {"id": "w2", "role": "w"}], "parameter_order": ["w1", "w2"],
      "unit_order": {"output": ["o1"], "hidden": ["h1"], "input": ["x1"]},
      "output_size": 1, "hidden_size": 1, "input_size": 1.0, "layers": ["input", "hidden", "output"]},
    "bias_policy": {"updated_in_step": false, "mode": "none"},
    "numeric_policy": {"byte_output": {"indent": "none", "trailing_zero_policy": "pad", "json_key_order": "schema",
      "format": "jsonl"}, "computation_order": "schema", "tolerance": {"rtol": 1e-6, "atol": 1e-12},
      "rounding": "hte", "precision_significant_digits": 9, "number_encoding": "decimal"},
    "metadata": {"extra": "dropped", "gradient_convention": "descent", "source": "test \"quoted\""},
    "fixture_status": {"promote_to": "x", "canonical": true, "verification_state": "v", "authoring_state": "a"},
    "step": 1,
    "fixture": "small",
    "schema_version": "0.4.0"
  })");
}

const char* const kSmallCanonical =
    R"({"schema_version":"0.4.0","fixture":"small","step":1,)"
    R"("fixture_status":{"authoring_state":"a","verification_state":"v","canonical":true},)"
    R"("metadata":{"source":"test \"quoted\"","gradient_convention":"descent"},)"
    R"("numeric_policy":{"number_encoding":"decimal","precision_significant_digits":9,"rounding":"hte",)"
    R"("tolerance":{"atol":0.00000000000100000000,"rtol":0.00000100000000},"computation_order":"schema",)"
    R"("byte_output":{"format":"jsonl","json_key_order":"schema","trailing_zero_policy":"pad","indent":"none"}},)"
    R"("bias_policy":{"mode":"none","updated_in_step":false},)"
    R"("topology":{"layers":["input","hidden","output"],"input_size":1,"hidden_size":1,"output_size":1,)"
    R"("unit_order":{"input":["x1"],"hidden":["h1"],"output":["o1"]},"parameter_order":["w1","w2"],)"
    R"("parameters":[{"id":"w1","role":"w","from_unit":"x1","to_unit":"h1"},{"id":"w2","role":"w"}],)"
    R"("activation_hidden":"sigmoid","activation_output":"sigmoid","loss":"half_squared_error","bias_sharing":"none"},)"
    R"("learning_rate":0.100000000,"step_index":0,"inputs":{"x1":0.00100000000},"targets":{"o1":1.00000000},)"
    R"("parameters_before":{"w1":1.00000000,"w2":2.00000000},)"
    R"("forward":{"h1":{"net":1.00000000,"out":0.250000000},"o1":{"net":0.000000000,"out":0.500000000}},)"
    R"("loss":{"per_output":{"o1":0.125000000},"total":0.125000000},)"
    R"("backward":{"output_error_signals":{"o1":{"factors":[{"name":"t","from":"targets.o1","value":-0.500000000}],)"
    R"("product_order":"p","signal_value":-0.500000000}},"hidden_error_signals":{"h1":{"downstream_contributions":[],)"
    R"("summation_order":["o1"],"backpropagated_sum":0.000000000,"activation_derivative":0.250000000,)"
    R"("product_order":"p","signal_value":0.000000000}}},)"
    R"("updates":[{"parameter_id":"w1","kind":"weight","layer_edge":"input_to_hidden","parameter_role":"x1_to_h1",)"
    R"("from_unit":"x1","to_unit":"h1","weight_before":1.00000000,"optimizer":{"name":"sgd","learning_rate":0.100000000,)"
    R"("factors":[{"name":"g","value":0.000000000}],"product_order":"left_to_right"},"gradient":0.000000000,)"
    R"("update":0.000000000,"weight_after":1.00000000}],)"
    R"("parameters_after":{"w1":1.00000000,"w2":2.00000000},)"
    R"("post_update_forward":{"status":"filled","h1":{"net":1.00000000,"out":0.250000000},)"
    R"("o1":{"net":0.000000000,"out":0.500000000}},)"
    R"("post_update_loss":{"status":"filled","per_output":{"o1":0.125000000},"total":0.125000000}})"
    "\n";

common::Error emit_error(const ordered_json& r) {
  auto out = receipt::emit::emit_receipt_line(r);
  REQUIRE(!out.ok());
  return out.error();
}

}  // namespace

TEST_CASE("emit: schema order, declared map order, metadata drop, integers, one LF") {
  auto out = receipt::emit::emit_receipt_line(small_receipt());
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().to_string()));
  CHECK(*out == kSmallCanonical);
}

TEST_CASE("emit: emit_receipts frames one line per record, empty for none") {
  auto two = receipt::emit::emit_receipts({small_receipt(), small_receipt()});
  REQUIRE(two.ok());
  CHECK(*two == std::string(kSmallCanonical) + kSmallCanonical);
  auto none = receipt::emit::emit_receipts({});
  REQUIRE(none.ok());
  CHECK(none->empty());
}

TEST_CASE("emit: optimizer_config writes nesterov only when true and dampening only when non-zero") {
  auto r = small_receipt();
  r["optimizer_config"] = ordered_json::parse(
      R"({"dampening": 0, "nesterov": false, "momentum": 0.9, "t": 3.0, "learning_rate": 0.1, "name": "sgd_momentum"})");
  auto out = receipt::emit::emit_receipt_line(r);
  REQUIRE(out.ok());
  CHECK(out->find(R"("learning_rate":0.100000000,"optimizer_config":{"name":"sgd_momentum","learning_rate":0.100000000,"t":3,"momentum":0.900000000},"step_index":0)") != std::string::npos);
  r["optimizer_config"]["nesterov"] = true;
  r["optimizer_config"]["dampening"] = 0.5;
  out = receipt::emit::emit_receipt_line(r);
  REQUIRE(out.ok());
  CHECK(out->find(R"("momentum":0.900000000,"nesterov":true,"dampening":0.500000000})") != std::string::npos);
}

TEST_CASE("emit: errors carry the JSON path") {
  auto r = small_receipt();
  r["forward"]["h1"]["out"] = 1e7;
  auto e = emit_error(r);
  CHECK(e.where().json_path == "/forward/h1/out");
  CHECK(e.message().starts_with("PLAIN_DECIMAL_OUT_OF_SCOPE"));

  r = small_receipt();
  r["parameters_after"].erase("w2");
  e = emit_error(r);
  CHECK(e.where().json_path == "/parameters_after/w2");

  r = small_receipt();
  r["step"] = 1.5;
  CHECK(emit_error(r).where().json_path == "/step");

  r = small_receipt();
  r["fixture"] = 3;
  e = emit_error(r);
  CHECK(e.where().json_path == "/fixture");
  CHECK(e.message() == "expected a string, got a number");

  r = small_receipt();
  r.erase("metadata");
  e = emit_error(r);
  CHECK(e.where().json_path == "/metadata");
  CHECK(e.message() == "missing required field \"metadata\"");

  r = small_receipt();
  r["updates"][0]["optimizer"]["factors"][0]["value"] = "0.5";
  CHECK(emit_error(r).where().json_path == "/updates/0/optimizer/factors/0/value");

  r = small_receipt();
  r["topology"]["unit_order"]["output"][0] = 7;
  CHECK(emit_error(r).where().json_path == "/topology/unit_order/output/0");

  CHECK(emit_error(ordered_json::array()).message().find("expected a receipt object") != std::string::npos);
}

TEST_CASE("emit: v0.1.0 receipts use the fixed Mazur layout and need every metadata field") {
  auto r = small_receipt();
  r["schema_version"] = "0.1.0";
  // The Mazur layout reads i1/i2, w1..b2 etc.; the small receipt has none of them.
  auto e = emit_error(r);
  CHECK(e.where().json_path == "/metadata/url_reference");
}
