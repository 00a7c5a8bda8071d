#include "receipt/engine/builtin_inputs.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;
using topology::BiasSharing;
using topology::Parameter;
using topology::Role;

topology::Topology dense_topology(const DenseNames& n, BiasSharing sharing,
                                  std::string (*weight_id)(const std::string&, const std::string&, std::size_t),
                                  const std::string& hidden_bias, const std::string& output_bias) {
  topology::Topology t;
  t.unit_order = {n.input, n.hidden, n.output};
  std::size_t w = 0;
  const auto add = [&](Parameter p) {
    t.parameter_order.push_back(p.id);
    t.parameters.push_back(std::move(p));
  };
  for (const auto& h : n.hidden) {
    for (const auto& i : n.input) add(Parameter{weight_id(i, h, w++), Role::input_to_hidden_weight, i, h, std::nullopt});
  }
  for (const auto& o : n.output) {
    for (const auto& h : n.hidden) add(Parameter{weight_id(h, o, w++), Role::hidden_to_output_weight, h, o, std::nullopt});
  }
  if (sharing == BiasSharing::per_layer) {
    add(Parameter{hidden_bias, Role::hidden_bias, std::nullopt, std::nullopt, n.hidden});
    add(Parameter{output_bias, Role::output_bias, std::nullopt, std::nullopt, n.output});
  } else {
    for (const auto& h : n.hidden) {
      add(Parameter{"b_" + h, Role::hidden_bias, std::nullopt, std::nullopt, std::vector<std::string>{h}});
    }
    for (const auto& o : n.output) {
      add(Parameter{"b_" + o, Role::output_bias, std::nullopt, std::nullopt, std::vector<std::string>{o}});
    }
  }
  t.bias_sharing = sharing;
  t.input_size = static_cast<std::int64_t>(n.input.size());
  t.hidden_size = static_cast<std::int64_t>(n.hidden.size());
  t.output_size = static_cast<std::int64_t>(n.output.size());
  return t;
}

namespace {

std::string edge_name(const std::string& from, const std::string& to, std::size_t) { return "w_" + from + "_" + to; }
std::string numbered_name(const std::string&, const std::string&, std::size_t index) {
  std::string name = "w";  // appended: GCC 12 reports a false -Wrestrict on "w" + std::to_string
  name += std::to_string(index + 1);
  return name;
}

ordered_json byte_output() {
  return ordered_json{{"format", "jsonl"},
                      {"json_key_order", "schema_defined"},
                      {"trailing_zero_policy", "pad_to_significant_digits"},
                      {"indent", "none"}};
}

topology::NumericPolicy policy_with(ordered_json tolerance) {
  topology::NumericPolicy np;
  np.json = ordered_json{{"number_encoding", "decimal"},
                         {"precision_significant_digits", 9},
                         {"rounding", "round_half_to_even"},
                         {"tolerance", std::move(tolerance)},
                         {"computation_order", "schema_defined"},
                         {"byte_output", byte_output()}};
  return np;
}

topology::BiasPolicy bias_policy(topology::BiasMode mode, const char* reason, bool updated, const char* reconciliation) {
  topology::BiasPolicy bp;
  bp.mode = mode;
  bp.json = ordered_json{{"mode", to_string(mode)},
                         {"reason", reason},
                         {"updated_in_step", updated},
                         {"reconciliation", reconciliation}};
  return bp;
}

const char* const kDeepLearningBook = "https://www.deeplearningbook.org/contents/mlp.html";

GeneralInput make(topology::Topology t, double lr, std::vector<double> x, std::vector<double> y,
                  std::vector<double> params, topology::NumericPolicy np, topology::BiasPolicy bp, std::string fixture,
                  std::string source, std::string url) {
  GeneralInput in;
  in.base.topology = std::move(t);
  in.base.learning_rate = lr;
  in.base.inputs = std::move(x);
  in.base.targets = std::move(y);
  in.base.parameters_before = std::move(params);
  in.base.numeric_policy = std::move(np);
  in.base.bias_policy = std::move(bp);
  in.base.fixture = std::move(fixture);
  in.base.metadata = topology::Metadata{std::move(source), std::move(url), "descent_direction"};
  return in;
}

}  // namespace

topology::Topology mazur_topology() {
  return dense_topology({{"i1", "i2"}, {"h1", "h2"}, {"o1", "o2"}}, BiasSharing::per_layer, numbered_name, "b1", "b2");
}

topology::NumericPolicy numeric_policy_v01() { return policy_with(1e-9); }

topology::NumericPolicy numeric_policy(double atol, double rtol) {
  return policy_with(ordered_json{{"atol", atol}, {"rtol", rtol}});
}

topology::BiasPolicy mazur_bias_policy() {
  return bias_policy(topology::BiasMode::constant,
                     "Mazur's published derivation does not update bias terms in step 1", false,
                     "parameters_after.b1 == parameters_before.b1 AND parameters_after.b2 == parameters_before.b2");
}

topology::BiasPolicy constant_bias_policy_v03() {
  return bias_policy(topology::BiasMode::constant,
                     "v0.3 fixtures pin biases as constant on step 1 to keep the engine in scope of memo \xC2\xA7"
                     "5 (bias updates deferred to v0.4+)",
                     false, "parameters_after[bias_id] === parameters_before[bias_id] for every bias parameter");
}

// The text of the shipped xor-per-neuron-bias golden (the library constant's text differs; the golden is
// what `generate` must reproduce).
topology::BiasPolicy per_neuron_sgd_bias_policy() {
  return bias_policy(topology::BiasMode::sgd,
                     "v0.4 per-neuron bias path: each per-neuron bias parameter is updated by SGD using the served "
                     "unit's error signal as the single-factor gradient (\xE2\x88\x82" "E/\xE2\x88\x82" "b_u = signal_u).",
                     true,
                     "for every per_neuron bias parameter b_u, parameters_after[b_u] === parameters_before[b_u] + "
                     "learning_rate * signal_u (Rule 4-7 via a single-factor optimizer).");
}

GeneralInput xor_input() {
  return make(dense_topology({{"x1", "x2"}, {"h1", "h2"}, {"y"}}, BiasSharing::per_layer, edge_name, "b_hidden",
                             "b_output"),
              0.5, {1, 0}, {1}, {0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.10, 0.20}, numeric_policy(1e-12, 1e-8),
              constant_bias_policy_v03(), "xor-sigmoid-engine-first-run",
              "src/mazur.ts XOR_INPUT (XOR-sigmoid 2-2-1 engine first-run)", kDeepLearningBook);
}

GeneralInput xor_per_neuron_bias_input() {
  return make(dense_topology({{"x1", "x2"}, {"h1", "h2"}, {"y"}}, BiasSharing::per_neuron, edge_name, "", ""), 0.5,
              {1, 0}, {1}, {0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.10, 0.15, 0.20}, numeric_policy(1e-12, 1e-8),
              per_neuron_sgd_bias_policy(), "xor-per-neuron-bias-engine-first-run",
              "src/mazur.ts XOR_PER_NEURON_BIAS_INPUT (XOR-sigmoid 2-2-1 per-neuron-bias engine first-run)",
              kDeepLearningBook);
}

GeneralInput iris_input() {
  return make(dense_topology({{"f1", "f2", "f3", "f4"}, {"h1", "h2", "h3"}, {"o_setosa", "o_versicolor", "o_virginica"}},
                             BiasSharing::per_layer, edge_name, "b_hidden", "b_output"),
              0.1, {5.1, 3.5, 1.4, 0.2}, {1, 0, 0},
              {0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90,
               0.95, 1.00, 1.05, 1.10, 0.10, 0.20},
              numeric_policy(1e-12, 1e-8), constant_bias_policy_v03(), "iris-sigmoid-engine-first-run",
              "src/mazur.ts IRIS_INPUT (iris 4-3-3-sigmoid engine first-run, first flower of Fisher's iris dataset)",
              "https://archive.ics.uci.edu/ml/datasets/iris");
}

GeneralInput softmax_ce_input() {
  auto t = dense_topology({{"x1", "x2"}, {"h1", "h2"}, {"o1", "o2", "o3"}}, BiasSharing::per_layer, edge_name,
                          "b_hidden", "b_output");
  t.activation_output = topology::Activation::softmax;
  t.loss = topology::Loss::cross_entropy_softmax;
  return make(std::move(t), 0.5, {1.0, 0.5}, {1, 0, 0},
              {0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.10, 0.20, 0.30, 0.40, 0.10, 0.20}, numeric_policy(1e-11, 1e-7),
              constant_bias_policy_v03(), "softmax-ce-engine-first-run",
              "src/mazur.ts SOFTMAX_CE_INPUT (softmax+CE 2-2-3 engine first-run, one-hot class o1)", kDeepLearningBook);
}

GeneralInput mazur_general_input() {
  return make(mazur_topology(), 0.5, {0.05, 0.10}, {0.01, 0.99},
              {0.15, 0.20, 0.25, 0.30, 0.40, 0.45, 0.50, 0.55, 0.35, 0.60}, numeric_policy_v01(), mazur_bias_policy(),
              "mazur-2-2-2-engine-first-run",
              "src/bin/bp.ts scaffold topology --topology mazur (synthesized from MAZUR_INPUT + MAZUR_TOPOLOGY; library "
              "MAZUR_GENERAL_INPUT export not yet available)",
              "https://mattmazur.com/2015/03/17/a-step-by-step-backpropagation-example/");
}

}  // namespace receipt::engine
