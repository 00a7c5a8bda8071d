#pragma once
// Sidecars covering what the engine witness reads differently per configuration: every builtin
// general step, each optimizer the importer forwards (coupled L2, momentum with dampening, with
// Nesterov, Adam, AdamW, each update with its state_before), no numeric_policy (the default), no
// bias_policy (resolved), a batch, and a step written by bp's PyTorch helper from a real run.
// Only the engine's inputs are made consistent: the claims stay the builtin's, so a variant may
// disagree with the engine, which the import still writes as a receipt.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sidecar_fixture.hpp"
#include "support/suite_paths.hpp"

namespace importer_test {

inline nlohmann::ordered_json helper_sidecar() {
  std::ifstream in(suite_test::source_dir() + "/tests/bench/data/pytorch_sgd_momentum_step.sidecar.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto doc = common::parse_json_text(ss.str());
  REQUIRE(doc.ok());
  return *doc;
}

// The sidecar with `optimizer` and, per update, `state` as optimizer.state_before.
inline nlohmann::ordered_json with_optimizer(nlohmann::ordered_json s, nlohmann::ordered_json optimizer,
                                             const nlohmann::ordered_json& state) {
  optimizer["learning_rate"] = s["learning_rate"];
  s["optimizer"] = std::move(optimizer);
  double k = 0;
  for (auto& u : s["updates"]) {
    nlohmann::ordered_json st = state;
    for (auto it = st.begin(); it != st.end(); ++it) it.value() = it.value().get<double>() * (1 + k);
    u["optimizer"]["state_before"] = std::move(st);
    k += 0.125;
  }
  return s;
}

// A two-sample batch of the softmax step (the second sample's inputs scaled).
inline nlohmann::ordered_json batched_sidecar() {
  nlohmann::ordered_json s = softmax_sidecar();
  nlohmann::ordered_json second = {{"inputs", s["inputs"]}, {"targets", s["targets"]}};
  for (auto it = second["inputs"].begin(); it != second["inputs"].end(); ++it) {
    it.value() = it.value().get<double>() * 0.5;
  }
  s["batch"] = {{"size", 2}, {"sample_order", {"s1", "s2"}}, {"reduction", "mean"}};
  s["per_sample"] = {{"s1", {{"inputs", s["inputs"]}, {"targets", s["targets"]}}}, {"s2", std::move(second)}};
  return s;
}

// Changes every `period`-th node of a sidecar (from `phase` on), depth first: an object loses its
// first key, an array is reversed, a number moves, a string is renamed, some other scalar turns null.
inline void mutate(nlohmann::ordered_json& j, std::size_t period, std::size_t phase, std::size_t& n) {
  const bool hit = (n++ % period) == phase;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) mutate(it.value(), period, phase, n);
    if (hit && !j.empty()) j.erase(j.begin().key());
  } else if (j.is_array()) {
    for (auto& e : j) mutate(e, period, phase, n);
    if (hit) std::reverse(j.begin(), j.end());
  } else if (hit && j.is_number()) {
    j = j.get<double>() * 1.25 + 0.5;
  } else if (hit && j.is_string()) {
    j = j.get<std::string>() + "x";
  } else if (hit && (n % 3) == 0) {
    j = nullptr;
  }
}

inline std::vector<std::pair<std::string, nlohmann::ordered_json>> sidecar_variants() {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> out;
  for (const char* name : {"xor", "iris", "xor-per-neuron-bias", "softmax-ce", "xor-multi-step"}) {
    int step = 0;
    for (const auto& r : builtin_receipts(name)) {
      out.emplace_back(std::string(name) + " step " + std::to_string(step++), to_sidecar(r, "framework-trace.v0.1.0"));
    }
  }
  const nlohmann::ordered_json base = softmax_sidecar();
  out.emplace_back("sgd coupled L2", with_optimizer(base, {{"name", "sgd"}, {"weight_decay", 0.01}}, {}));
  out.emplace_back("sgd momentum",
                   with_optimizer(base, {{"name", "sgd_momentum"}, {"momentum", 0.9}}, {{"buffer", 0.03}}));
  out.emplace_back("sgd momentum dampening L2",
                   with_optimizer(base,
                                  {{"name", "sgd_momentum"}, {"momentum", 0.8}, {"dampening", 0.1},
                                   {"weight_decay", 0.001}},
                                  {{"buffer", -0.02}}));
  out.emplace_back("sgd momentum nesterov",
                   with_optimizer(base, {{"name", "sgd_momentum"}, {"momentum", 0.7}, {"nesterov", true}},
                                  {{"buffer", 0.05}}));
  nlohmann::ordered_json adam = {{"name", "adam"}, {"beta1", 0.9}, {"beta2", 0.999}, {"epsilon", 1e-8}, {"t", 3}};
  out.emplace_back("adam", with_optimizer(base, adam, {{"m", 0.01}, {"v", 0.0004}}));
  adam["name"] = "adamw";
  adam["weight_decay"] = 0.01;
  out.emplace_back("adamw", with_optimizer(base, adam, {{"m", 0.01}, {"v", 0.0004}}));
  nlohmann::ordered_json bare = softmax_sidecar();
  bare.erase("numeric_policy");
  bare.erase("bias_policy");
  out.emplace_back("no policies", std::move(bare));
  out.emplace_back("batched", batched_sidecar());
  out.emplace_back("pytorch helper, sgd momentum", helper_sidecar());
  return out;
}

}  // namespace importer_test
