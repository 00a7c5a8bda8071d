// Rule 0 (structural, 0.8, 0.9, recognized optimizer, observer provenance), Rules 11-13, and the
// JavaScript semantics the reference's rules have on malformed values.
#include <doctest/doctest.h>

#include <cmath>

#include "receipt/engine/fdlibm.hpp"
#include "rules_core_support.hpp"

using namespace rules_core_test;
using reconcile::reconcile_receipt;

TEST_CASE("Rule 0: bias policy, kind against role, layer sizes; a Rule 0 failure stops the numeric rules") {
  Json j = tiny_receipt();
  j["updates"][0]["kind"] = "bias";
  j["updates"][0]["gradient"] = 7;  // would be Rule 4, but Rule 0 short-circuits
  auto r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 0, "updates[0].kind"), describe(r));  // 0a
  CHECK(count_rule(r, 4) == 0);
  CHECK(r.rules_evaluated.empty());

  j = tiny_receipt();
  j["parameters_after"]["b1"] = 0.2;
  j["topology"]["parameters"] = Json::parse(R"([{"id": "w1", "role": "hidden_to_output_weight"},
                                                {"id": "b1", "role": "hidden_bias", "applies_to_units": ["h1"]}])");
  r = reconcile_receipt(j);
  const auto* f = find(r, 0, "parameters_after.b1");  // 0b
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->stored == 0.2);
  CHECK(*f->recomputed == 0.1);

  j = tiny_receipt();
  j["topology"]["bias_sharing"] = "per_layer";
  j["topology"]["parameters"] = Json::parse(R"([{"id": "w1", "role": "hidden_bias", "applies_to_units": []}])");
  r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 0, "topology.parameters[id=w1].applies_to_units"), describe(r));  // 0e
  CHECK_MESSAGE(find(r, 0, "updates[0].kind"), describe(r));                              // 0f

  j = tiny_receipt();
  j["topology"]["hidden_size"] = 2;
  r = reconcile_receipt(j);
  f = find(r, 0, "topology.hidden_size");  // 0g
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->stored == 2);
  CHECK(*f->recomputed == 1);
}

TEST_CASE("Rule 0: sgd bias mode without bias updates") {
  Json j = tiny_receipt();
  j["bias_policy"]["mode"] = "sgd";
  j["topology"]["parameters"] = Json::parse(R"([{"id": "b1", "role": "hidden_bias"}])");
  const auto r = reconcile_receipt(j);
  const auto* f = find(r, 0, "bias_policy.mode");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(f->message->find("b1") != std::string::npos);
}

TEST_CASE("Rule 0: unrecognized optimizers and observer-provenance contradictions") {
  Json j = tiny_receipt();
  j["updates"][0]["optimizer"]["name"] = "lamb";
  j["optimizer_config"] = Json::parse(R"({"name": "shampoo"})");
  auto r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 0, "updates[0].optimizer.name"), describe(r));
  CHECK_MESSAGE(find(r, 0, "optimizer_config.name"), describe(r));

  j = tiny_receipt();
  j["source_framework"] = Json::parse(R"({"name": "pytorch"})");
  r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 0, "fixture_status.authoring_state"), describe(r));
  j["fixture_status"].erase("authoring_state");  // an absent label is not a relabel
  r = reconcile_receipt(j);
  CHECK_FALSE(find(r, 0, "fixture_status.authoring_state"));
}

TEST_CASE("Rule 0.9: forward must hold exactly the declared hidden and output units") {
  Json j = tiny_receipt();
  j["forward"].erase("o1");
  j["forward"]["o7"] = Json::parse(R"({"net": 1, "out": 1})");
  j["forward"]["h1"].erase("net");
  auto r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 0, "forward.o1"), describe(r));
  CHECK_MESSAGE(find(r, 0, "forward.o7"), describe(r));
  CHECK_MESSAGE(find(r, 0, "forward.h1.net"), describe(r));
  // Observer receipts are Rule 14's.
  j["fixture_status"]["authoring_state"] = "external_imported";
  r = reconcile_receipt(j);
  CHECK_FALSE(find(r, 0, "forward.o1"));
}

TEST_CASE("Rule 0.8 and Rule 11: softmax bounds and normalization") {
  Json j = softmax_receipt();
  j["forward"]["o1"]["out"] = 1.25;
  j["forward"]["o2"]["out"] = -0.25;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 0, "forward.o1.out");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(f->message->find("Rule 0.8") != std::string::npos);
  CHECK(*f->delta == 0.25);
  CHECK(find(r, 0, "forward.o2.out"));
  CHECK(count_rule(r, 11) == 0);  // short-circuited

  j = softmax_receipt();
  j["forward"]["o2"]["out"] = 0.2;
  r = reconcile_receipt(j);
  f = find(r, 11, "forward[output_units].out (sum)");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->stored == 0.95);
  CHECK(*f->recomputed == 1);
}

TEST_CASE("Rule 12: loss formulas and loss-component coherence") {
  Json j = tiny_receipt();
  j["loss"]["total"] = 0.0313;
  auto r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 12, "loss.total"), describe(r));

  j = tiny_receipt();
  j["loss"]["per_output"]["o1"] = 0.04;
  r = reconcile_receipt(j);
  const auto* f = find(r, 12, "loss.per_output.o1");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "o1");
  CHECK(*f->recomputed == 0.03125);

  j = softmax_receipt();
  j["loss"]["per_output"]["o2"] = 0.1;  // y == 0 gives exactly 0
  j["loss"]["per_output"]["o9"] = 0;    // undeclared component
  r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 12, "loss.per_output.o2"), describe(r));
  CHECK_MESSAGE(find(r, 12, "loss.per_output.o9"), describe(r));

  j = softmax_receipt();
  j["loss"]["per_output"].erase("o2");
  r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 12, "loss.per_output.o2"), describe(r));

  j = tiny_receipt();
  j["batch"] = Json::parse(R"({"size": 1})");  // batched receipts are Rule 18's
  j["loss"]["total"] = 5;
  r = reconcile_receipt(j);
  CHECK(count_rule(r, 12) == 0);
}

TEST_CASE("Rule 13: dual-form term product, summation, and collapsed-vs-dual") {
  const std::string base = "backward.output_error_signals.o1.dual_form";
  Json j = softmax_receipt();
  j["backward"]["output_error_signals"]["o1"]["dual_form"]["jacobian_terms"][0]["term_value"] = 0.3;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 13, base + ".jacobian_terms[0].term_value");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "o1");
  CHECK(find(r, 13, base + ".summed_value"));  // 13b sums the stored term values

  j = softmax_receipt();
  auto& dual = j["backward"]["output_error_signals"]["o1"]["dual_form"];
  dual["summed_value"] = 0.3;
  dual["jacobian_terms"][0]["term_value"] = 0.3;
  dual["jacobian_terms"][0]["factors"][1]["value"] = 0.3;
  r = reconcile_receipt(j);  // self-consistent dual form: only 13c
  REQUIRE_MESSAGE(count_rule(r, 13) == 1, describe(r));
  f = find(r, 13, base + ".summed_value");
  CHECK(*f->stored == 0.3);
  CHECK(*f->recomputed == 0.25);

  j = softmax_receipt();
  j["backward"]["output_error_signals"]["o1"]["dual_form"]["product_order"] = "right_to_left";
  r = reconcile_receipt(j);
  CHECK_MESSAGE(find(r, 0, base + ".product_order"), describe(r));
}

TEST_CASE("JavaScript semantics: coercion, concatenation, throws, key order") {
  // Two factors are multiplied with ToNumber: a numeric string counts as its number.
  Json j = tiny_receipt();
  j["updates"][0]["optimizer"]["factors"][1]["value"] = "0.25";
  j["updates"][0]["optimizer"]["factors"][1].erase("from");
  auto r = reconcile_receipt(j);
  CHECK_MESSAGE(r.ok, describe(r));

  // One factor is the raw value: a string is not a finite number.
  j = tiny_receipt();
  j["backward"]["output_error_signals"]["o1"]["factors"] = Json::parse(R"([{"name": "x", "value": "-0.125"}])");
  r = reconcile_receipt(j);
  const auto* f = find(r, 1, "backward.output_error_signals.o1.signal_value");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK_FALSE(f->recomputed);
  CHECK(std::isnan(*f->delta));

  // `+` with a null operand is numeric (null is 0); with a string it concatenates.
  j = tiny_receipt();
  j["updates"][0]["weight_before"] = nullptr;
  j["updates"][0]["weight_after"] = -0.015625;
  r = reconcile_receipt(j);
  CHECK_FALSE(find(r, 6, "updates[0].weight_after"));
  j["updates"][0]["weight_before"] = "0.5";
  j["updates"][0]["weight_after"] = 0.484375;
  r = reconcile_receipt(j);
  f = find(r, 6, "updates[0].weight_after");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK_FALSE(f->recomputed);

  // A null update element: the reference's rules throw; that is a Rule 0 failure on `updates`.
  j = tiny_receipt();
  j["updates"].push_back(nullptr);
  r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 0, "updates"), describe(r));
  CHECK_FALSE(r.ok);

  // Object.keys order: integer-like keys first.
  j = tiny_receipt();
  j["parameters_after"]["b1"] = 0.2;
  j["parameters_after"]["7"] = 1;
  j["parameters_before"]["7"] = 2;
  r = reconcile_receipt(j);
  REQUIRE_MESSAGE(r.failures.size() >= 2, describe(r));
  CHECK(r.failures[0].field_path == "parameters_after.7");
}

TEST_CASE("Rule 12 cross-entropy uses Math.log's exact bits (fdlibm), not the C library's") {
  // V8 gives -1.0683325531575325 here; a correctly rounded log gives ...323 (one ulp apart).
  CHECK(receipt::engine::fdlibm::log(0.343580943) == -1.0683325531575325);
  CHECK(receipt::engine::fdlibm::log(1.0) == 0.0);
  CHECK(std::isinf(receipt::engine::fdlibm::log(0.0)));
  CHECK(std::isnan(receipt::engine::fdlibm::log(-1.0)));
  Json j = softmax_receipt();
  j["forward"]["o1"]["out"] = 0.343580943;
  j["forward"]["o2"]["out"] = 1 - 0.343580943;
  j["loss"]["per_output"]["o1"] = 1.0683325531575325;
  j["loss"]["total"] = 1.0683325531575325;
  j["numeric_policy"]["tolerance"] = 0;
  const auto r = reconcile_receipt(j);
  CHECK_MESSAGE(count_rule(r, 12) == 0, describe(r));
}
