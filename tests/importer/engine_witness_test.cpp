#include "importer/engine_witness.hpp"

#include <doctest/doctest.h>

#include "importer/observer_receipt.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "importer/sidecar_checks.hpp"
#include "sidecar_fixture.hpp"

using nlohmann::ordered_json;

TEST_CASE("engine_witness: bias_policy is the sidecar's, else routed by whether per-neuron biases moved") {
  ordered_json s = importer_test::softmax_sidecar();
  REQUIRE(s.contains("bias_policy"));
  CHECK(importer::resolve_bias_policy(s) == s["bias_policy"]);
  s.erase("bias_policy");
  CHECK(importer::resolve_bias_policy(s)["mode"] == "constant");
  // A per-neuron bias that changes: routed to sgd.
  ordered_json t = ordered_json::parse(R"({"topology":{"bias_sharing":"per_neuron","parameters":[
      {"id":"b_h1","role":"hidden_bias"}]},"parameters_before":{"b_h1":0.1},"parameters_after":{"b_h1":0.2}})");
  CHECK(importer::resolve_bias_policy(t)["mode"] == "sgd");
  t["topology"]["bias_sharing"] = "per_layer";
  CHECK(importer::resolve_bias_policy(t)["mode"] == "constant");
}

TEST_CASE("engine_witness: the engine sees the optimizer only as the reference forwards it") {
  ordered_json s = importer_test::softmax_sidecar();
  s["optimizer"] = {{"name", "sgd"}, {"learning_rate", 0.5}, {"weight_decay", 0}};
  auto plain = importer::engine_input_document(s);
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->contains("optimizer_config"));  // sgd without decay: no config
  s["optimizer"]["weight_decay"] = 0.01;
  auto l2 = importer::engine_input_document(s);
  REQUIRE(l2.ok());
  CHECK((*l2)["optimizer_config"]["weight_decay"] == 0.01);
  s.erase("numeric_policy");
  auto d = importer::engine_input_document(s);
  REQUIRE(d.ok());
  CHECK((*d)["numeric_policy"] == importer::default_numeric_policy());
}

TEST_CASE("observer_receipt: schema_version follows the optimizer") {
  ordered_json s = ordered_json::object();
  CHECK(importer::observer_schema_version(s) == "0.4.0");
  s["optimizer"] = {{"name", "adamw"}};
  CHECK(importer::observer_schema_version(s) == "0.5.0");
  s["optimizer"] = {{"name", "sgd_momentum"}, {"dampening", 0}};
  CHECK(importer::observer_schema_version(s) == "0.6.0");
  s["optimizer"]["nesterov"] = true;
  CHECK(importer::observer_schema_version(s) == "0.7.0");
  s["optimizer"]["weight_decay"] = 0.1;
  CHECK(importer::observer_schema_version(s) == "0.8.0");
  s["optimizer"] = {{"name", "adam"}, {"weight_decay", 0.1}};  // decoupled: no coupled-L2 bump
  CHECK(importer::observer_schema_version(s) == "0.5.0");
}

TEST_CASE("sidecar_checks: js_trim strips JavaScript whitespace, BOM included") {
  CHECK(importer::js_trim("\xEF\xBB\xBF {} \r\n") == "{}");
  CHECK(importer::js_trim("\xC2\xA0x\xE2\x80\xA8") == "x");
  CHECK(importer::js_trim("  ").empty());
}

TEST_CASE("sidecar_checks: parameters_after must equal parameter_order") {
  ordered_json s = ordered_json::parse(R"({"topology":{"parameter_order":["a","b"]},"parameters_after":{"a":1}})");
  auto missing = importer::check_cross_references(s, "L");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message().rfind("L: sidecar parameters_after is missing parameter(s) [\"b\"]", 0) == 0);
  s["parameters_after"] = {{"a", 1}, {"b", 2}, {"c", 3}};
  auto extra = importer::check_cross_references(s, "L");
  REQUIRE_FALSE(extra.ok());
  CHECK(extra.error().message().find("[\"c\"]") != std::string::npos);
}

TEST_CASE("engine_witness: a topology recognised by its bytes gives what reading it again gives") {
  // Records whose topologies alternate, one of them once with other spacing: each witnessed with
  // its topology's bytes (as read_sidecar keeps them) equals the witness that reads the tree.
  const auto xor_step = importer_test::xor_trace().front();
  ordered_json other = xor_step;  // another topology read with the same options
  other["topology"]["activation_hidden"] = "relu";
  ordered_json softmax = importer_test::softmax_sidecar();  // read with other options
  softmax["format"] = xor_step["format"];
  const std::string xor_text = xor_step.dump();
  std::string spaced = xor_text;
  spaced.insert(spaced.find("\"topology\":") + 11, " \n ");
  const std::vector<std::string> texts = {xor_text, other.dump(), xor_text, spaced, softmax.dump(), xor_text, other.dump()};
  const importer::SidecarGate gate{.label = "L", .single_step = std::nullopt};
  std::vector<importer::GatedSidecar> read;
  for (const auto& text : texts) {
    auto r = importer::read_sidecar(std::string_view(text), "L", "it is", gate);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->topology_bytes.empty());
    read.push_back(std::move(*r));
  }
  CHECK(read[3].topology_bytes != read[0].topology_bytes);  // the same topology, spaced otherwise
  // In stream order, as an import witnesses them (what this thread remembers carries over)...
  std::vector<ordered_json> by_bytes;
  for (const auto& r : read) {
    auto w = importer::run_witness(r.doc, r.topology_bytes);
    REQUIRE(w.ok());
    by_bytes.push_back(receipt::engine::to_json(*w));
  }
  // ... against each read from its tree.
  for (std::size_t i = 0; i < read.size(); ++i) {
    INFO("record " << i);
    auto w = importer::run_witness(read[i].doc);
    REQUIRE(w.ok());
    CHECK(by_bytes[i] == receipt::engine::to_json(*w));
  }
}
