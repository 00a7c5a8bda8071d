// Rules 1-8 on a tiny exactly-representable receipt: each fires on its own field with the right
// parameter id and cascade, and the untouched receipt passes.
#include <doctest/doctest.h>

#include <cmath>

#include "rules_core_support.hpp"

using namespace rules_core_test;
using reconcile::reconcile_receipt;

TEST_CASE("core rules: the tiny receipt and its softmax variant pass") {
  const auto r = reconcile_receipt(tiny_receipt());
  CHECK_MESSAGE(r.ok, describe(r));
  const auto s = reconcile_receipt(softmax_receipt());
  CHECK_MESSAGE(s.ok, describe(s));
}

TEST_CASE("Rule 1: output signal against the product of its factors") {
  Json j = tiny_receipt();
  j["backward"]["output_error_signals"]["o1"]["signal_value"] = -0.126;
  const auto r = reconcile_receipt(j);
  const auto* f = find(r, 1, "backward.output_error_signals.o1.signal_value");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "o1");
  CHECK(*f->recomputed == -0.125);
  CHECK(*f->stored == -0.126);
  CHECK(f->factors.size() == 2);
  CHECK(*f->product_order == "left_to_right");
  CHECK(*f->tolerance == 1e-12);
}

TEST_CASE("Rule 1: an unsupported product_order is Rule 0") {
  Json j = tiny_receipt();
  j["backward"]["output_error_signals"]["o1"]["product_order"] = "right_to_left";
  const auto r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 0, "backward.output_error_signals.o1.product_order"), describe(r));
  CHECK(count_rule(r, 1) == 0);
}

TEST_CASE("Rule 2: contribution product and the sum in summation_order") {
  Json j = tiny_receipt();
  j["backward"]["hidden_error_signals"]["h1"]["downstream_contributions"][0]["value"] = -0.07;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 2, "backward.hidden_error_signals.h1.downstream_contributions[0].value");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "h1");
  CHECK(*f->recomputed == -0.0625);
  CHECK(find(r, 2, "backward.hidden_error_signals.h1.backpropagated_sum"));  // sums the stored value

  j = tiny_receipt();
  j["backward"]["hidden_error_signals"]["h1"]["summation_order"] = Json::parse(R"(["o2"])");
  r = reconcile_receipt(j);
  f = find(r, 2, "backward.hidden_error_signals.h1.backpropagated_sum");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(std::isnan(*f->recomputed));  // no contribution from o2
  CHECK(std::isnan(*f->delta));
  CHECK(*f->tolerance == 0);
}

TEST_CASE("Rule 3: hidden signal is backpropagated_sum * activation_derivative") {
  Json j = tiny_receipt();
  j["backward"]["hidden_error_signals"]["h1"]["activation_derivative"] = 0.3;
  const auto r = reconcile_receipt(j);
  const auto* f = find(r, 3, "backward.hidden_error_signals.h1.signal_value");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "h1");
  REQUIRE(f->factors.size() == 2);
  CHECK(f->factors[0].name == "backpropagated_sum");
  CHECK(f->factors[1].value == 0.3);
}

TEST_CASE("Rule 4 and its Rule 5 cascade") {
  Json j = tiny_receipt();
  j["updates"][0]["gradient"] = -0.03126;
  const auto r = reconcile_receipt(j);
  const auto* f4 = find(r, 4, "updates[0].gradient");
  REQUIRE_MESSAGE(f4, describe(r));
  CHECK(*f4->parameter_id == "w1");
  CHECK_FALSE(f4->cascade_of_rule);
  const auto* f5 = find(r, 5, "updates[0].update");
  REQUIRE_MESSAGE(f5, describe(r));
  CHECK(f5->cascade_of_rule == 4);
  CHECK(count_rule(r, 6) == 0);  // stored values: weight_before + update still holds
}

TEST_CASE("Rule 5, with Rules 6 and 7 cascading from it") {
  Json j = tiny_receipt();
  j["updates"][0]["update"] = -0.0157;
  const auto r = reconcile_receipt(j);
  const auto* f5 = find(r, 5, "updates[0].update");
  REQUIRE_MESSAGE(f5, describe(r));
  CHECK_FALSE(f5->cascade_of_rule);
  const auto* f6 = find(r, 6, "updates[0].weight_after");
  const auto* f7 = find(r, 7, "parameters_after.w1");
  REQUIRE_MESSAGE((f6 && f7), describe(r));
  CHECK(f6->cascade_of_rule == 5);
  CHECK(f7->cascade_of_rule == 5);
}

TEST_CASE("Rule 5: gated off for non-SGD optimizers; SGD coupled L2 folds the decay in") {
  Json j = tiny_receipt();
  j["updates"][0]["update"] = -0.0157;
  j["updates"][0]["optimizer"]["name"] = "adam";
  auto r = reconcile_receipt(j);
  CHECK(count_rule(r, 5) == 0);

  j = tiny_receipt();
  j["optimizer_config"] = Json::parse(R"({"name": "sgd", "learning_rate": 0.5, "weight_decay": 0.25})");
  // grad_eff = -0.03125 - 0.25 * 0.5 = -0.15625; update = 0.5 * grad_eff
  j["updates"][0]["update"] = -0.078125;
  j["updates"][0]["weight_after"] = 0.421875;
  j["parameters_after"]["w1"] = 0.421875;
  r = reconcile_receipt(j);
  CHECK_MESSAGE(count_rule(r, 5) == 0, describe(r));
  CHECK_MESSAGE(r.ok, describe(r));
}

TEST_CASE("Rule 6: weight progression, and the AdamW decoupled-decay branch") {
  Json j = tiny_receipt();
  j["updates"][0]["weight_after"] = 0.4844;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 6, "updates[0].weight_after");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK_FALSE(f->cascade_of_rule);
  CHECK(count_rule(r, 7) == 0);

  j = tiny_receipt();
  j["updates"][0]["optimizer"]["name"] = "adamw";
  j["optimizer_config"] = Json::parse(R"({"name": "adamw", "weight_decay": 0.5})");
  // (1 - 0.5 * 0.5) * 0.5 + update = 0.375 - 0.015625
  j["updates"][0]["weight_after"] = 0.359375;
  j["parameters_after"]["w1"] = 0.359375;
  r = reconcile_receipt(j);
  CHECK_MESSAGE(count_rule(r, 6) == 0, describe(r));
  CHECK_MESSAGE(count_rule(r, 7) == 0, describe(r));

  j["optimizer_config"].erase("weight_decay");  // Rule 6 falls back to before + update; Rule 7 refuses
  r = reconcile_receipt(j);
  CHECK(find(r, 6, "updates[0].weight_after"));
  const auto* f7 = find(r, 7, "optimizer_config.weight_decay");
  REQUIRE_MESSAGE(f7, describe(r));
  CHECK(*f7->parameter_id == "w1");
}

TEST_CASE("Rule 7: final state, constant bias exactness, underdetermined bias") {
  Json j = tiny_receipt();
  j["parameters_after"]["w1"] = 0.4844;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 7, "parameters_after.w1");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK_FALSE(f->cascade_of_rule);

  j = tiny_receipt();
  j["bias_policy"]["mode"] = "sgd";
  r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 0, "parameters_after.b1"), describe(r));  // not updated, not constant

  j = tiny_receipt();
  j["parameters_before"].erase("w1");
  r = reconcile_receipt(j);
  REQUIRE_MESSAGE(find(r, 0, "parameters_before.w1"), describe(r));
}

TEST_CASE("Rule 8: provenance paths resolve and agree") {
  Json j = tiny_receipt();
  j["forward"]["h1"]["out"] = 0.26;
  auto r = reconcile_receipt(j);
  const auto* f = find(r, 8, "forward.h1.out");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(*f->parameter_id == "w1");
  CHECK(*f->recomputed == 0.26);

  j = tiny_receipt();
  j["updates"][0]["optimizer"]["factors"][1]["from"] = "forward.h9.out";
  r = reconcile_receipt(j);
  f = find(r, 8, "forward.h9.out");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(std::isnan(*f->recomputed));
  CHECK(f->message->find("is missing") != std::string::npos);
}

TEST_CASE("non-finite arithmetic fails with delta NaN, never passes") {
  Json j = tiny_receipt();
  j["updates"][0]["optimizer"]["factors"] = Json::parse(R"([{"name": "a", "value": 1e300}, {"name": "b", "value": 1e300}])");
  const auto r = reconcile_receipt(j);
  const auto* f = find(r, 4, "updates[0].gradient");
  REQUIRE_MESSAGE(f, describe(r));
  CHECK(std::isinf(*f->recomputed));
  CHECK(std::isnan(*f->delta));
  CHECK(*f->tolerance == 0);
  CHECK(f->message->find("Non-finite") != std::string::npos);
}
