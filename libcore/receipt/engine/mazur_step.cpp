#include "receipt/engine/mazur_step.hpp"

#include <string>

#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_step.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;

MazurInput mazur_published_input() {
  MazurInput in;
  in.i1 = 0.05;
  in.i2 = 0.10;
  in.t_o1 = 0.01;
  in.t_o2 = 0.99;
  in.learning_rate = 0.5;
  const double w[8] = {0.15, 0.20, 0.25, 0.30, 0.40, 0.45, 0.50, 0.55};
  for (int k = 0; k < 8; ++k) in.w[k] = w[k];
  in.b1 = 0.35;
  in.b2 = 0.60;
  in.topology = ordered_json{{"layers", {"input", "hidden", "output"}},
                             {"input_size", 2},
                             {"hidden_size", 2},
                             {"output_size", 2},
                             {"activation", "sigmoid"},
                             {"loss", "half_squared_error"},
                             {"bias_sharing", "per_layer"}};
  in.numeric_policy = numeric_policy_v01().json;
  in.bias_policy = mazur_bias_policy().json;
  return in;
}

common::Result<ordered_json> run_mazur_step(const MazurInput& in) {
  const auto& topo = in.topology;
  if (!topo.is_object() || topo.value("bias_sharing", "") != "per_layer" || topo.value("activation", "") != "sigmoid" ||
      topo.value("loss", "") != "half_squared_error") {
    return common::Error::invalid_argument(
        "the Mazur engine runs the 2-2-2 sigmoid, half_squared_error, per_layer topology only",
        common::Location{{}, 0, "/topology"});
  }
  if (!in.bias_policy.is_object() || in.bias_policy.value("mode", "") != "constant") {
    return common::Error::invalid_argument("the Mazur engine keeps biases constant", common::Location{{}, 0, "/bias_policy/mode"});
  }
  // The 2-2-2 step is the general step on Mazur's topology (same operation order); only the v0.1.0
  // receipt shape differs.
  GeneralInput g;
  g.base.topology = mazur_topology();
  g.base.learning_rate = in.learning_rate;
  g.base.inputs = {in.i1, in.i2};
  g.base.targets = {in.t_o1, in.t_o2};
  g.base.parameters_before.assign(in.w, in.w + 8);
  g.base.parameters_before.push_back(in.b1);
  g.base.parameters_before.push_back(in.b2);
  g.base.bias_policy.mode = topology::BiasMode::constant;
  auto general = run_general_step(g);
  if (!general) return general.error();
  ordered_json& r = *general;

  ordered_json out;
  out["schema_version"] = "0.1.0";
  out["fixture"] = "mazur-engine-first-run";
  out["step"] = 1;
  out["fixture_status"] = r["fixture_status"];
  out["metadata"] = ordered_json{{"source", "src/engine.ts (Mazur 2-2-2 engine first-run)"},
                                 {"url_reference", "https://mattmazur.com/2015/03/17/a-step-by-step-backpropagation-example/"},
                                 {"gradient_convention", "descent_direction"}};
  out["numeric_policy"] = in.numeric_policy;
  out["bias_policy"] = in.bias_policy;
  out["topology"] = in.topology;
  for (const char* key : {"learning_rate", "inputs", "targets", "parameters_before", "forward", "loss", "backward",
                          "updates", "parameters_after", "post_update_forward", "post_update_loss"}) {
    out[key] = std::move(r[key]);
  }
  // v0.1.0 names each weight's role by unit positions: input_1_to_hidden_1 ... hidden_2_to_output_2.
  for (auto& u : out["updates"]) {
    const std::string from = u["from_unit"].get<std::string>();
    const std::string to = u["to_unit"].get<std::string>();
    const bool ih = u["layer_edge"] == "input_to_hidden";
    u["parameter_role"] = std::string(ih ? "input_" : "hidden_") + from.substr(1) + (ih ? "_to_hidden_" : "_to_output_") +
                          to.substr(1);
  }
  return out;
}

}  // namespace receipt::engine
