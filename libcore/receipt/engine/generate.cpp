#include "receipt/engine/generate.hpp"

#include <cmath>
#include <iterator>
#include <memory>
#include <string>

#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/engine/mazur_step.hpp"
#include "receipt/engine/multi_step.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;

const std::vector<std::string_view>& builtin_names() {
  static const std::vector<std::string_view> names = {"mazur", "xor", "iris", "xor-per-neuron-bias", "softmax-ce",
                                                      "xor-multi-step"};
  return names;
}

namespace {

common::Result<std::vector<EngineReceipt>> one(common::Result<ordered_json> r) {
  if (!r) return r.error();
  std::vector<EngineReceipt> out;
  out.emplace_back(std::move(*r));
  return out;
}

common::Result<std::vector<EngineReceipt>> one(GeneralInput in) {
  auto r = compute_general_step(std::make_shared<const GeneralInput>(std::move(in)));
  if (!r) return r.error();
  std::vector<EngineReceipt> out;
  out.emplace_back(std::move(*r));
  return out;
}

GeneralInput xor_multi_step_input() {
  GeneralInput in = xor_input();
  in.base.trace_id = "0123456789abcdef0123456789abcdef";
  return in;
}

}  // namespace

common::Result<std::vector<EngineReceipt>> generate_builtin(std::string_view name) {
  if (name == "mazur") return one(run_mazur_step(mazur_published_input()));
  if (name == "xor") return one(xor_input());
  if (name == "iris") return one(iris_input());
  if (name == "xor-per-neuron-bias") {
    GeneralInput in = xor_per_neuron_bias_input();
    in.base.metadata->source =
        "fixtures/xor-per-neuron-bias.golden.jsonl input (XOR_PER_NEURON_BIAS_INPUT \xE2\x80\x94 XOR-sigmoid 2-2-1 with "
        "per-neuron biases on h1, h2, y; v0.4 engine first-run)";
    return one(std::move(in));
  }
  if (name == "softmax-ce") return one(softmax_ce_input());
  if (name == "xor-multi-step") {
    MultiStepNaming naming;
    naming.fixture_prefix = "xor-multi-step-step-";
    naming.source_prefix = "src/general-engine.ts (XOR-sigmoid 2-2-1; multi-step good fixture, step ";
    naming.source_suffix = ")";
    auto run = run_multi_step(xor_multi_step_input(), 2, naming);
    if (!run) return run.error();
    return std::vector<EngineReceipt>(std::make_move_iterator(run->begin()), std::make_move_iterator(run->end()));
  }
  std::string known;
  for (const auto n : builtin_names()) known += (known.empty() ? "" : ", ") + std::string(n);
  return common::Error::invalid_argument("unknown generator '" + std::string(name) + "'; expected one of " + known);
}

common::Result<std::vector<EngineReceipt>> generate_from_config(const topology::TopologyInput& input) {
  GeneralInput in;
  in.base = input;
  return one(std::move(in));
}

namespace {

// JSON.stringify prints integral numbers without a fraction; keep them as integers so any JSON
// writer does the same.
ordered_json js_number(double v) {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9007199254740992.0) {
    return static_cast<std::int64_t>(v);
  }
  return v;
}

ordered_json js_numbers(ordered_json j) {
  if (j.is_number_float()) return js_number(j.get<double>());
  if (j.is_structured()) {
    for (auto& child : j) child = js_numbers(child);
  }
  return j;
}

ordered_json scaffold_json(const GeneralInput& in) {
  const auto& b = in.base;
  const auto& t = b.topology;
  ordered_json topo;  // the reference's object-literal order, not the receipt order
  topo["layers"] = ordered_json::array({"input", "hidden", "output"});
  topo["unit_order"] = ordered_json{{"input", t.unit_order.input}, {"hidden", t.unit_order.hidden},
                                    {"output", t.unit_order.output}};
  topo["parameter_order"] = t.parameter_order;
  ordered_json params = ordered_json::array();
  for (const auto& p : t.parameters) {
    ordered_json j{{"id", p.id}, {"role", to_string(p.role)}};
    if (p.from_unit) j["from_unit"] = *p.from_unit;
    if (p.to_unit) j["to_unit"] = *p.to_unit;
    if (p.applies_to_units) j["applies_to_units"] = *p.applies_to_units;
    params.push_back(std::move(j));
  }
  topo["parameters"] = std::move(params);
  topo["activation_hidden"] = to_string(t.activation_hidden);
  topo["activation_output"] = to_string(t.activation_output);
  topo["loss"] = to_string(t.loss);
  topo["bias_sharing"] = to_string(t.bias_sharing);
  topo["input_size"] = t.input_size;
  topo["hidden_size"] = t.hidden_size;
  topo["output_size"] = t.output_size;
  ordered_json out;
  out["topology"] = std::move(topo);
  out["learning_rate"] = js_number(b.learning_rate);
  const auto map = [](const std::vector<std::string>& ids, const std::vector<double>& v) {
    ordered_json m = ordered_json::object();
    for (std::size_t i = 0; i < ids.size(); ++i) m[ids[i]] = js_number(v[i]);
    return m;
  };
  out["inputs"] = map(t.unit_order.input, b.inputs);
  out["targets"] = map(t.unit_order.output, b.targets);
  out["parameters_before"] = map(t.parameter_order, b.parameters_before);
  out["numeric_policy"] = js_numbers(b.numeric_policy.json);
  out["bias_policy"] = b.bias_policy.json;
  if (b.fixture) out["fixture"] = *b.fixture;
  if (b.metadata) {
    ordered_json m{{"source", b.metadata->source}};
    if (b.metadata->url_reference) m["url_reference"] = *b.metadata->url_reference;
    m["gradient_convention"] = b.metadata->gradient_convention;
    out["metadata"] = std::move(m);
  }
  return out;
}

}  // namespace

common::Result<ordered_json> scaffold_topology(std::string_view name) {
  if (name == "mazur") return scaffold_json(mazur_general_input());
  if (name == "xor") return scaffold_json(xor_input());
  if (name == "iris") return scaffold_json(iris_input());
  return common::Error::invalid_argument("unknown topology '" + std::string(name) + "'. Expected one of: mazur, xor, iris.");
}

}  // namespace receipt::engine
