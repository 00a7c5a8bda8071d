#include "receipt/engine/general_step.hpp"

#include <cmath>
#include <string>

#include "receipt/engine/json_object_builder.hpp"
#include "receipt/engine/optimizer.hpp"
#include "receipt/engine/receipt_blocks.hpp"
#include "receipt/engine/step_core.hpp"
#include "receipt/engine/step_validation.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;
using topology::BiasMode;
using topology::Loss;

common::Status validate_topology(const topology::Topology& t) {
  auto ix = topology::index_topology(t);
  if (!ix) return ix.error();
  return {};
}

namespace {

const char* schema_version_for(const GeneralInput& in) {
  const auto& oc = in.optimizer;
  const bool sgd_family = oc && (oc->name == OptimizerName::sgd || oc->name == OptimizerName::sgd_momentum);
  if (sgd_family && oc->weight_decay.value_or(0.0) != 0) return "0.8.0";
  if (oc && oc->name == OptimizerName::sgd_momentum) {
    if (oc->nesterov.value_or(false) || oc->dampening.value_or(0.0) != 0) return "0.7.0";
    return "0.6.0";
  }
  if (oc && (oc->name == OptimizerName::adam || oc->name == OptimizerName::adamw)) return "0.5.0";
  const auto& t = in.base.topology;
  if (t.loss == Loss::cross_entropy_softmax || t.activation_output == topology::Activation::softmax) return "0.3.0";
  return "0.2.0";
}

std::optional<ordered_json> optimizer_config_json(const std::optional<OptimizerConfig>& oc) {
  if (!oc) return std::nullopt;
  ordered_json out;
  out["name"] = to_string(oc->name);
  out["learning_rate"] = oc->learning_rate;
  switch (oc->name) {
    case OptimizerName::adam:
    case OptimizerName::adamw:
      out["beta1"] = *oc->beta1;
      out["beta2"] = *oc->beta2;
      out["epsilon"] = *oc->epsilon;
      if (oc->name == OptimizerName::adamw) out["weight_decay"] = *oc->weight_decay;
      out["t"] = *oc->t;
      return out;
    case OptimizerName::sgd_momentum:
      if (oc->weight_decay.value_or(0.0) != 0) out["weight_decay"] = *oc->weight_decay;
      out["momentum"] = *oc->momentum;
      if (oc->nesterov.value_or(false)) out["nesterov"] = true;
      if (oc->dampening.value_or(0.0) != 0) out["dampening"] = *oc->dampening;
      return out;
    case OptimizerName::sgd:
      // Plain SGD receipts carry no optimizer_config unless coupled L2 is on.
      if (oc->weight_decay.value_or(0.0) == 0) return std::nullopt;
      out["weight_decay"] = *oc->weight_decay;
      return out;
  }
  return std::nullopt;
}

// The receipt's head: everything before `inputs`, in canonical order.
ordered_json receipt_head(const GeneralInput& in, const char* schema_version, std::string fixture) {
  const auto& b = in.base;
  ordered_json r;
  r["schema_version"] = schema_version;
  r["fixture"] = std::move(fixture);
  r["step"] = b.step_index.value_or(0) + 1;
  r["fixture_status"] = fixture_status_json();
  r["metadata"] = metadata_json(b.metadata);
  r["numeric_policy"] = b.numeric_policy.json;
  r["bias_policy"] = b.bias_policy.json;
  r["topology"] = topology_json(b.topology);
  r["learning_rate"] = b.learning_rate;
  return r;
}

void add_trace(const GeneralInput& in, ordered_json& r) {
  if (in.base.trace_id) r["trace_id"] = *in.base.trace_id;
  if (in.base.step_index) r["step_index"] = *in.base.step_index;
}

ordered_json state_json(OptimizerName name, const OptimizerState& s) {
  if (name == OptimizerName::sgd_momentum) return JsonObjectBuilder(1).add("buffer", s.buffer).done();
  return JsonObjectBuilder(2).add("m", s.m).add("v", s.v).done();
}

}  // namespace

common::Result<ordered_json> run_general_step(const GeneralInput& in) {
  auto checked = check_general_input(in);
  if (!checked) return checked.error();
  const topology::TopologyIndex& ix = *checked;
  const auto& b = in.base;
  const auto& t = b.topology;
  const double lr = b.learning_rate;
  const double* x = b.inputs.data();
  const double* y = b.targets.data();
  const double* before = b.parameters_before.data();

  StepCore core;
  compute_step(t, ix, b.bias_policy.mode, x, y, before, core);

  const OptimizerConfig* oc = in.optimizer ? &*in.optimizer : nullptr;
  const bool stateful = oc != nullptr && oc->name != OptimizerName::sgd;
  const char* opt_name = stateful ? to_string(oc->name) : "sgd";
  std::vector<double> after(b.parameters_before);
  ordered_json updates = ordered_json::array();
  updates.get_ref<ordered_json::array_t&>().reserve(ix.slots.size());
  for (std::size_t k = 0; k < ix.slots.size(); ++k) {
    if (!core.updated[k]) continue;
    const OptimizerState state_before = stateful ? *(*in.state_before)[k] : OptimizerState{};
    const ParameterUpdate u = apply_optimizer(oc, lr, before[k], core.grad[k], state_before);
    after[k] = u.weight_after;
    JsonObjectBuilder opt(6);
    opt.add("name", opt_name).add("learning_rate", lr).add("factors", gradient_factors_json(t, ix, core, x, k));
    opt.add("product_order", "left_to_right");
    if (stateful) {
      opt.add("state_before", state_json(oc->name, state_before));
      opt.add("state_after", state_json(oc->name, u.state_after));
    }
    updates.push_back(update_json(t, ix, k, before[k], opt.done(), core.grad[k], u.update, u.weight_after));
  }

  ForwardValues post;
  run_forward(t, ix, x, after.data(), post);
  std::vector<double> post_loss;
  const double post_total = compute_loss(t.loss, y, post.out_o.data(), ix.n_out, post_loss);

  ordered_json r = receipt_head(in, schema_version_for(in), b.fixture.value_or("general-engine-first-run"));
  if (auto oj = optimizer_config_json(in.optimizer)) r["optimizer_config"] = std::move(*oj);
  add_trace(in, r);
  r["inputs"] = value_map_json(t.unit_order.input, x);
  r["targets"] = value_map_json(t.unit_order.output, y);
  r["parameters_before"] = value_map_json(t.parameter_order, before);
  r["forward"] = forward_json(t, core.fwd);
  r["loss"] = loss_json(t, core.loss_o, core.loss_total);
  r["backward"] = backward_json(t, ix, core, before, y);
  r["updates"] = std::move(updates);
  r["parameters_after"] = value_map_json(t.parameter_order, after.data());
  r["post_update_forward"] = forward_json(t, post, "filled");
  ordered_json pl = loss_json(t, post_loss, post_total);
  r["post_update_loss"] = ordered_json{{"status", "filled"}, {"per_output", pl["per_output"]}, {"total", post_total}};
  return r;
}

common::Result<ordered_json> run_batched_general_step(const GeneralInput& in) {
  auto checked = check_batched_input(in);
  if (!checked) return checked.error();
  const topology::TopologyIndex& ix = *checked;
  const auto& b = in.base;
  const auto& t = b.topology;
  const Batch& batch = *in.batch;
  const std::size_t n = batch.samples.size();
  const std::size_t np = ix.slots.size();
  const double* before = b.parameters_before.data();

  // Per-sample receipts are computed without the optimizer (the reference re-runs plain steps),
  // then reduced: mean = (0 + g1 + ... + gn) / n, sum = 0 + g1 + ..., none = g1.
  StepCore first;
  StepCore scratch;
  std::vector<double> grad_acc(np, 0.0);
  std::vector<double> loss_o_acc(ix.n_out, 0.0);
  double loss_total_acc = 0;
  ordered_json per_sample = ordered_json::object();
  ordered_json per_sample_total = ordered_json::object();
  for (std::size_t s = 0; s < n; ++s) {
    const Sample& smp = batch.samples[s];
    StepCore& c = s == 0 ? first : scratch;
    compute_step(t, ix, b.bias_policy.mode, smp.inputs.data(), smp.targets.data(), before, c);
    for (std::size_t k = 0; k < np; ++k) grad_acc[k] = grad_acc[k] + c.grad[k];
    for (std::size_t o = 0; o < ix.n_out; ++o) loss_o_acc[o] = loss_o_acc[o] + c.loss_o[o];
    loss_total_acc = loss_total_acc + c.loss_total;
    per_sample[smp.id] = ordered_json{{"inputs", value_map_json(t.unit_order.input, smp.inputs.data())},
                                      {"targets", value_map_json(t.unit_order.output, smp.targets.data())},
                                      {"forward", forward_json(t, c.fwd)},
                                      {"loss", loss_json(t, c.loss_o, c.loss_total)}};
    per_sample_total[smp.id] = c.loss_total;
  }
  const auto reduce = [&](double acc, double first_value) {
    switch (batch.reduction) {
      case Reduction::mean: return acc / static_cast<double>(n);
      case Reduction::sum: return acc;
      case Reduction::none: return first_value;
    }
    return acc;
  };

  const Sample& s0 = batch.samples[0];
  const double lr = b.learning_rate;
  std::vector<double> after(b.parameters_before);
  ordered_json updates = ordered_json::array();
  for (std::size_t k = 0; k < np; ++k) {
    if (!first.updated[k]) continue;
    const double g = reduce(grad_acc[k], first.grad[k]);
    const double update = lr * g;
    after[k] = before[k] + update;
    ordered_json opt;
    opt["name"] = "sgd";
    opt["learning_rate"] = lr;
    opt["factors"] = ordered_json::array({ordered_json{{"name", "batch_reduced_gradient"}, {"value", g}}});
    opt["product_order"] = "left_to_right";
    updates.push_back(update_json(t, ix, k, before[k], std::move(opt), g, update, after[k]));
  }
  std::vector<double> reduced_loss_o(ix.n_out);
  for (std::size_t o = 0; o < ix.n_out; ++o) reduced_loss_o[o] = reduce(loss_o_acc[o], first.loss_o[o]);
  const double reduced_total = reduce(loss_total_acc, first.loss_total);

  ForwardValues post;
  run_forward(t, ix, s0.inputs.data(), after.data(), post);
  std::vector<double> post_loss;
  const double post_total = compute_loss(t.loss, s0.targets.data(), post.out_o.data(), ix.n_out, post_loss);

  // The batched receipt has the schema version of a plain per-sample receipt: no optimizer block.
  GeneralInput plain;
  plain.base.topology = t;
  const char* version = schema_version_for(plain);
  ordered_json r = receipt_head(in, version, b.fixture.value_or("batched-" + std::to_string(n) + "-sample-step"));
  add_trace(in, r);
  ordered_json order = ordered_json::array();
  for (const auto& smp : batch.samples) order.push_back(smp.id);
  r["batch"] = ordered_json{{"size", n}, {"sample_order", std::move(order)}, {"reduction", to_string(batch.reduction)}};
  r["inputs"] = value_map_json(t.unit_order.input, s0.inputs.data());
  r["targets"] = value_map_json(t.unit_order.output, s0.targets.data());
  r["parameters_before"] = value_map_json(t.parameter_order, before);
  r["per_sample"] = std::move(per_sample);
  r["forward"] = forward_json(t, first.fwd);
  r["loss"] = ordered_json{{"per_output", value_map_json(t.unit_order.output, reduced_loss_o.data())},
                           {"per_sample", std::move(per_sample_total)},
                           {"reduction", to_string(batch.reduction)},
                           {"total", reduced_total}};
  r["backward"] = backward_json(t, ix, first, before, s0.targets.data());
  r["updates"] = std::move(updates);
  r["parameters_after"] = value_map_json(t.parameter_order, after.data());
  r["post_update_forward"] = forward_json(t, post, "filled");
  r["post_update_loss"] = ordered_json{{"status", "filled"},
                                       {"per_output", value_map_json(t.unit_order.output, post_loss.data())},
                                       {"total", post_total}};
  return r;
}

}  // namespace receipt::engine
