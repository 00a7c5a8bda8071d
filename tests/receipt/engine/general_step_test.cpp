#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_step.hpp"
#include "receipt/engine/mazur_step.hpp"

using namespace receipt::engine;
using nlohmann::ordered_json;
using receipt::topology::Activation;
using receipt::topology::BiasSharing;
using receipt::topology::Loss;

namespace {

std::string step_edge(const std::string& f, const std::string& t, std::size_t) { return "w_" + f + "_" + t; }

GeneralInput net(Activation hidden, Activation output, Loss loss, BiasSharing sharing) {
  GeneralInput in;
  auto& b = in.base;
  b.topology = dense_topology({{"a", "b", "c"}, {"h1", "h2", "h3", "h4"}, {"p", "q"}}, sharing, step_edge, "bh", "bo");
  b.topology.activation_hidden = hidden;
  b.topology.activation_output = output;
  b.topology.loss = loss;
  b.learning_rate = 0.25;
  b.inputs = {0.9, -0.4, 0.3};
  b.targets = loss == Loss::cross_entropy_softmax ? std::vector<double>{0.25, 0.75} : std::vector<double>{0.2, 0.9};
  for (std::size_t k = 0; k < b.topology.parameter_order.size(); ++k) {
    b.parameters_before.push_back(0.37 * std::sin(1.7 * static_cast<double>(k) + 0.4));
  }
  b.numeric_policy = numeric_policy(1e-12, 1e-8);
  b.bias_policy = sharing == BiasSharing::per_neuron ? per_neuron_sgd_bias_policy() : constant_bias_policy_v03();
  return in;
}

double total_loss(const GeneralInput& in) {
  auto r = run_general_step(in);
  REQUIRE(r.ok());
  return (*r)["loss"]["total"].get<double>();
}

// Every update's gradient is the descent direction -dE/dw: compare with central differences of the loss.
void check_gradients(const GeneralInput& in) {
  auto r = run_general_step(in);
  REQUIRE(r.ok());
  const auto& order = in.base.topology.parameter_order;
  std::size_t checked = 0;
  for (const auto& u : (*r)["updates"]) {
    const std::string id = u["parameter_id"];
    std::size_t k = 0;
    while (order[k] != id) ++k;
    const double h = 1e-6;
    GeneralInput plus = in, minus = in;
    plus.base.parameters_before[k] += h;
    minus.base.parameters_before[k] -= h;
    const double dE = (total_loss(plus) - total_loss(minus)) / (2 * h);
    CAPTURE(id);
    CHECK(u["gradient"].get<double>() == doctest::Approx(-dE).epsilon(1e-6).scale(1e-3));
    ++checked;
  }
  CHECK(checked >= 20);
}

}  // namespace

TEST_CASE("general_step: Mazur's published numbers and the reference's pinned total") {
  auto r = run_mazur_step(mazur_published_input());
  REQUIRE(r.ok());
  // docs/computation-order.md pins post_update_loss.total bit for bit.
  CHECK((*r)["post_update_loss"]["total"].get<double>() == 0.29102777369359933);
  // Mazur's worked example (2015): E_total = 0.298371109, w5+ = 0.35891648, w1+ = 0.149780716.
  CHECK((*r)["loss"]["total"].get<double>() == doctest::Approx(0.298371109).epsilon(1e-9));
  CHECK((*r)["parameters_after"]["w5"].get<double>() == doctest::Approx(0.35891648).epsilon(1e-8));
  CHECK((*r)["parameters_after"]["w1"].get<double>() == doctest::Approx(0.149780716).epsilon(1e-9));
  CHECK((*r)["updates"][0]["parameter_role"] == "input_1_to_hidden_1");
  CHECK((*r)["updates"][7]["parameter_role"] == "hidden_2_to_output_2");
  CHECK((*r)["schema_version"] == "0.1.0");
}

TEST_CASE("general_step: gradients match finite differences for every activation and loss") {
  for (Activation h : {Activation::sigmoid, Activation::identity, Activation::relu}) {
    for (Activation o : {Activation::sigmoid, Activation::identity, Activation::relu}) {
      CAPTURE(receipt::topology::to_string(h));
      CAPTURE(receipt::topology::to_string(o));
      check_gradients(net(h, o, Loss::half_squared_error, BiasSharing::per_layer));
    }
    check_gradients(net(h, Activation::softmax, Loss::cross_entropy_softmax, BiasSharing::per_layer));
  }
}

TEST_CASE("general_step: per-neuron sgd biases get updates whose gradients match finite differences") {
  const GeneralInput in = net(Activation::sigmoid, Activation::sigmoid, Loss::half_squared_error, BiasSharing::per_neuron);
  check_gradients(in);
  auto r = run_general_step(in);
  REQUIRE(r.ok());
  CHECK((*r)["updates"].size() == in.base.topology.parameter_order.size());
  CHECK((*r)["updates"].back()["kind"] == "bias");
  CHECK((*r)["updates"].back()["layer_edge"] == "bias_to_layer");
}

TEST_CASE("general_step: constant biases stay put and get no update") {
  const GeneralInput in = net(Activation::sigmoid, Activation::sigmoid, Loss::half_squared_error, BiasSharing::per_layer);
  auto r = run_general_step(in);
  REQUIRE(r.ok());
  CHECK((*r)["updates"].size() == in.base.topology.parameter_order.size() - 2);
  CHECK((*r)["parameters_after"]["bh"] == (*r)["parameters_before"]["bh"]);
}

TEST_CASE("general_step: schema version and optimizer_config follow the optimizer") {
  GeneralInput in = net(Activation::sigmoid, Activation::sigmoid, Loss::half_squared_error, BiasSharing::per_layer);
  const auto version = [&] {
    auto r = run_general_step(in);
    REQUIRE(r.ok());
    return (*r)["schema_version"].get<std::string>();
  };
  CHECK(version() == "0.2.0");
  in.optimizer = OptimizerConfig{.name = OptimizerName::sgd, .learning_rate = 0.25, .weight_decay = 0.0};
  CHECK(version() == "0.2.0");  // weight_decay 0 is the plain path, byte for byte
  in.optimizer->weight_decay = 0.01;
  CHECK(version() == "0.8.0");
  std::vector<std::optional<OptimizerState>> zero(in.base.topology.parameter_order.size(), OptimizerState{});
  in.state_before = zero;
  in.optimizer = OptimizerConfig{.name = OptimizerName::sgd_momentum, .learning_rate = 0.25, .momentum = 0.9};
  CHECK(version() == "0.6.0");
  in.optimizer->nesterov = true;
  CHECK(version() == "0.7.0");
  in.optimizer = OptimizerConfig{
      .name = OptimizerName::adam, .learning_rate = 0.25, .beta1 = 0.9, .beta2 = 0.999, .epsilon = 1e-8, .t = 1};
  auto r = run_general_step(in);
  REQUIRE(r.ok());
  CHECK((*r)["schema_version"] == "0.5.0");
  CHECK((*r)["optimizer_config"]["t"] == 1);
  CHECK((*r)["updates"][0]["optimizer"]["state_after"].contains("m"));
  in.state_before.reset();
  auto missing = run_general_step(in);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message().find("state_before") != std::string::npos);
}

TEST_CASE("general_step: cross-entropy targets must form a distribution") {
  GeneralInput in = net(Activation::relu, Activation::softmax, Loss::cross_entropy_softmax, BiasSharing::per_layer);
  in.base.targets = {0.5, 0.6};
  auto r = run_general_step(in);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where().json_path == "/targets");
  CHECK(run_general_step(net(Activation::relu, Activation::softmax, Loss::cross_entropy_softmax, BiasSharing::per_layer)).ok());
}

TEST_CASE("general_step: batched mean of identical samples equals the single step; sum doubles it") {
  const GeneralInput single = net(Activation::sigmoid, Activation::identity, Loss::half_squared_error, BiasSharing::per_layer);
  auto one = run_general_step(single);
  REQUIRE(one.ok());
  GeneralInput batched = single;
  batched.batch = Batch{{Sample{"s0", single.base.inputs, single.base.targets}, Sample{"s1", single.base.inputs, single.base.targets}},
                        Reduction::mean};
  auto mean = run_batched_general_step(batched);
  REQUIRE(mean.ok());
  CHECK((*mean)["updates"][3]["gradient"] == (*one)["updates"][3]["gradient"]);
  CHECK((*mean)["fixture"] == "batched-2-sample-step");
  CHECK((*mean)["loss"]["per_sample"]["s1"] == (*one)["loss"]["total"]);
  batched.batch->reduction = Reduction::sum;
  auto sum = run_batched_general_step(batched);
  REQUIRE(sum.ok());
  CHECK((*sum)["updates"][3]["gradient"].get<double>() == 2 * (*one)["updates"][3]["gradient"].get<double>());
  batched.batch->reduction = Reduction::none;
  CHECK_FALSE(run_batched_general_step(batched).ok());  // would drop sample 2
}
