// Rules 20-24 (optimizer state shape, SGD momentum, Adam moments, bias correction, Adam update):
// small hand-built receipts, each rule fires on the broken value and passes on the sound one.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "rules_state_support.hpp"

using rules_state_test::Json;
using rules_state_test::run_rule;
namespace rules = reconcile::rules;

namespace {

// One Adam step from zero state with gradient g on weight w (t = 1), exactly as Rules 22-24 expect.
Json adam_receipt(double g = -0.25, double w = 0.5, double lr = 0.01, const char* name = "adam") {
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const double m = b1 * 0 + (1 - b1) * g;
  const double v = b2 * 0 + (1 - b2) * (g * g);
  const double m_hat = m / (1 - std::pow(b1, 1));
  const double v_hat = v / (1 - std::pow(b2, 1));
  const double update = (lr * m_hat) / (std::sqrt(v_hat) + eps);
  Json r = Json::parse(R"({"step_index":0,"optimizer_config":{"beta1":0.9,"beta2":0.999,"epsilon":1e-8,"t":1},
                           "updates":[{"parameter_id":"w","optimizer":{"state_before":{"m":0,"v":0}}}]})");
  r["optimizer_config"]["name"] = name;
  r["optimizer_config"]["learning_rate"] = lr;
  if (std::string(name) == "adamw") r["optimizer_config"]["weight_decay"] = 0.01;
  auto& u = r["updates"][0];
  u["weight_before"] = w;
  u["gradient"] = g;
  u["update"] = update;
  u["optimizer"]["name"] = name;
  u["optimizer"]["learning_rate"] = lr;
  u["optimizer"]["state_after"] = Json{{"m", m}, {"v", v}};
  return r;
}

// One SGD-momentum step: buffer_before b0, gradient g, optional dampening / Nesterov / coupled L2.
Json momentum_receipt(double b0, double g, double mu, double tau, bool nesterov, double wd = 0) {
  const double w = 0.5, lr = 0.1;
  const double g_eff = g - wd * w;
  const double b1 = mu * b0 + (1 - tau) * g_eff;
  const double effective = nesterov ? g_eff + mu * b1 : b1;
  Json r = Json::parse(R"({"optimizer_config":{"name":"sgd_momentum","learning_rate":0.1},
                           "updates":[{"parameter_id":"w","optimizer":{"name":"sgd_momentum","learning_rate":0.1}}]})");
  r["optimizer_config"]["momentum"] = mu;
  if (tau != 0) r["optimizer_config"]["dampening"] = tau;
  if (nesterov) r["optimizer_config"]["nesterov"] = true;
  if (wd != 0) r["optimizer_config"]["weight_decay"] = wd;
  auto& u = r["updates"][0];
  u["weight_before"] = w;
  u["gradient"] = g;
  u["update"] = lr * effective;
  u["optimizer"]["state_before"] = Json{{"buffer", b0}};
  u["optimizer"]["state_after"] = Json{{"buffer", b1}};
  return r;
}

}  // namespace

TEST_CASE("rule 20: optimizer state shape") {
  CHECK(run_rule(adam_receipt(), rules::check_rule_20_optimizer_state_shape).size() == 0);
  CHECK(run_rule(adam_receipt(-0.1, 0.5, 0.01, "adamw"), rules::check_rule_20_optimizer_state_shape).size() == 0);
  CHECK(run_rule(momentum_receipt(0.1, 0.2, 0.9, 0, false), rules::check_rule_20_optimizer_state_shape).size() == 0);

  Json r = adam_receipt();
  r.erase("optimizer_config");
  auto run = run_rule(r, rules::check_rule_20_optimizer_state_shape);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).rule == 20);
  CHECK(run.at(0).field_path == "optimizer_config");

  r = adam_receipt();
  r["optimizer_config"]["beta1"] = 1.0;
  r["optimizer_config"]["t"] = 1.5;
  r["updates"][0]["optimizer"].erase("state_before");
  r["updates"][0]["optimizer"]["state_after"]["v"] = -1.0;
  r["updates"][0]["optimizer"]["state_after"]["buffer"] = 0.0;
  run = run_rule(r, rules::check_rule_20_optimizer_state_shape);
  CHECK(run.paths() == std::vector<std::string>{"optimizer_config.beta1", "optimizer_config.t",
                                                "updates[0].optimizer.state_before",
                                                "updates[0].optimizer.state_after.v", "updates[0].optimizer.state_after"});
  CHECK(run.at(2).parameter_id == std::optional<std::string>("w"));

  r = adam_receipt(-0.1, 0.5, 0.01, "adamw");
  r["optimizer_config"].erase("weight_decay");
  CHECK(run_rule(r, rules::check_rule_20_optimizer_state_shape).paths() ==
        std::vector<std::string>{"optimizer_config.weight_decay"});

  r = momentum_receipt(0.1, 0.2, 0.9, 0.1, false);
  r["optimizer_config"]["nesterov"] = true;  // PyTorch rejects Nesterov with dampening
  CHECK(run_rule(r, rules::check_rule_20_optimizer_state_shape).paths() ==
        std::vector<std::string>{"optimizer_config.dampening"});

  r = adam_receipt();
  r["updates"][0]["optimizer"]["name"] = "adamw";  // disagrees with optimizer_config.name
  CHECK(run_rule(r, rules::check_rule_20_optimizer_state_shape).paths() ==
        std::vector<std::string>{"updates[0].optimizer.name"});

  // Plain SGD receipts are not this rule's business.
  r = Json::parse(R"({"updates":[{"parameter_id":"w","optimizer":{"name":"sgd"}}]})");
  CHECK(run_rule(r, rules::check_rule_20_optimizer_state_shape).size() == 0);
}

TEST_CASE("rule 21: SGD momentum with dampening, Nesterov and coupled L2") {
  for (bool nesterov : {false, true}) {
    for (double tau : {0.0, 0.25}) {
      if (nesterov && tau != 0) continue;
      for (double wd : {0.0, 0.01}) {
        CHECK(run_rule(momentum_receipt(0.1, -0.3, 0.9, tau, nesterov, wd), rules::check_rule_21_sgd_momentum).size() == 0);
      }
    }
  }
  // 21a: the buffer recurrence (dampening ignored by the producer).
  Json r = momentum_receipt(0.1, -0.3, 0.9, 0.0, false);
  r["optimizer_config"]["dampening"] = 0.5;
  auto run = run_rule(r, rules::check_rule_21_sgd_momentum);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "updates[0].optimizer.state_after.buffer");
  CHECK(run.at(0).recomputed == doctest::Approx(0.9 * 0.1 + 0.5 * -0.3));

  // 21b: classical update on a receipt that declares Nesterov.
  r = momentum_receipt(0.1, -0.3, 0.9, 0, false);
  r["optimizer_config"]["nesterov"] = true;
  run = run_rule(r, rules::check_rule_21_sgd_momentum);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "updates[0].update");
  const double b1 = 0.9 * 0.1 + -0.3;
  CHECK(*run.at(0).stored == doctest::Approx(b1));               // update / lr: the classical form
  CHECK(*run.at(0).recomputed == doctest::Approx(-0.3 + 0.9 * b1));  // what Nesterov requires

  // A scaled update is caught on updates[0].update (21b compares update / lr first).
  r = momentum_receipt(0.1, -0.3, 0.9, 0, false);
  r["updates"][0]["update"] = r["updates"][0]["update"].get<double>() * (1 + 1e-6);
  run = run_rule(r, rules::check_rule_21_sgd_momentum);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "updates[0].update");

  // A non-number learning rate: non-finite arithmetic fails with delta NaN.
  r = momentum_receipt(0.1, -0.3, 0.9, 0, false);
  r["updates"][0]["optimizer"]["learning_rate"] = "fast";
  run = run_rule(r, rules::check_rule_21_sgd_momentum);
  REQUIRE(run.size() == 1);
  CHECK(std::isnan(*run.at(0).delta));
  CHECK(*run.at(0).tolerance == 0);
}

TEST_CASE("rule 22: Adam moment recurrences catch a beta swap") {
  CHECK(run_rule(adam_receipt(), rules::check_rule_22_adam_moments).size() == 0);
  Json r = adam_receipt();
  r["optimizer_config"]["beta1"] = 0.999;
  r["optimizer_config"]["beta2"] = 0.9;
  auto run = run_rule(r, rules::check_rule_22_adam_moments);
  CHECK(run.paths() == std::vector<std::string>{"updates[0].optimizer.state_after.m", "updates[0].optimizer.state_after.v"});
  CHECK(run.at(0).rule == 22);
  // In tolerance: a relative change of 1e-12 passes, 1e-6 does not.
  r = adam_receipt();
  r["updates"][0]["optimizer"]["state_after"]["m"] = r["updates"][0]["optimizer"]["state_after"]["m"].get<double>() * (1 + 1e-12);
  CHECK(run_rule(r, rules::check_rule_22_adam_moments).size() == 0);
  r["updates"][0]["optimizer"]["state_after"]["m"] = r["updates"][0]["optimizer"]["state_after"]["m"].get<double>() * (1 + 1e-6);
  CHECK(run_rule(r, rules::check_rule_22_adam_moments).size() == 1);
  // A non-number moment is non-finite arithmetic: delta NaN.
  r = adam_receipt();
  r["updates"][0]["optimizer"]["state_after"]["v"] = "0.1";
  run = run_rule(r, rules::check_rule_22_adam_moments);
  REQUIRE(run.size() == 1);
  CHECK(std::isnan(*run.at(0).delta));
}

TEST_CASE("rule 23: Adam timestep is step_index + 1") {
  CHECK(run_rule(adam_receipt(), rules::check_rule_23_adam_bias_correction).size() == 0);
  Json r = adam_receipt();
  r["optimizer_config"]["t"] = 2;
  auto run = run_rule(r, rules::check_rule_23_adam_bias_correction);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "optimizer_config.t");
  CHECK(*run.at(0).stored == 2);
  CHECK(*run.at(0).recomputed == 1);
  r = adam_receipt();
  r.erase("step_index");
  r["optimizer_config"]["beta1"] = 1.0;  // divisor 1 - 1^t = 0
  CHECK(run_rule(r, rules::check_rule_23_adam_bias_correction).paths() ==
        std::vector<std::string>{"optimizer_config.beta1"});
}

TEST_CASE("rule 24: Adam update with epsilon outside the square root") {
  CHECK(run_rule(adam_receipt(), rules::check_rule_24_adam_update).size() == 0);
  CHECK(run_rule(adam_receipt(0.3, 0.5, 0.01, "adamw"), rules::check_rule_24_adam_update).size() == 0);
  Json r = adam_receipt(-2e-8);  // tiny gradient: epsilon placement matters
  const double g = -2e-8, m_hat = g, v_hat = g * g;
  r["updates"][0]["update"] = 0.01 * m_hat / std::sqrt(v_hat + 1e-8);  // epsilon inside the sqrt
  auto run = run_rule(r, rules::check_rule_24_adam_update);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "updates[0].update");
  CHECK(run.at(0).parameter_id == std::optional<std::string>("w"));
  // Bias correction omitted (m / (sqrt(v) + eps)).
  r = adam_receipt();
  const auto& st = r["updates"][0]["optimizer"]["state_after"];
  r["updates"][0]["update"] = 0.01 * st["m"].get<double>() / (std::sqrt(st["v"].get<double>()) + 1e-8);
  CHECK(run_rule(r, rules::check_rule_24_adam_update).size() == 1);
}
