#include "receipt/engine/receipt_json.hpp"

#include "receipt/engine/engine_receipt.hpp"

#include <optional>
#include <string>

#include "receipt/engine/json_object_builder.hpp"
#include "receipt/engine/receipt_blocks.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;

namespace {

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

ordered_json state_json(OptimizerName name, const OptimizerState& s) {
  if (name == OptimizerName::sgd_momentum) return JsonObjectBuilder(1).add("buffer", s.buffer).done();
  return JsonObjectBuilder(2).add("m", s.m).add("v", s.v).done();
}

ordered_json updates_json(const GeneralReceipt& r) {
  const auto& t = r.topology();
  const double lr = r.input->base.learning_rate;
  ordered_json updates = ordered_json::array();
  updates.get_ref<ordered_json::array_t&>().reserve(r.updates.size());
  for (const UpdateRecord& u : r.updates) {
    JsonObjectBuilder opt(6);
    opt.add("name", r.optimizer_name()).add("learning_rate", lr);
    if (r.batched()) {
      opt.add("factors",
              ordered_json::array({ordered_json{{"name", "batch_reduced_gradient"}, {"value", u.gradient}}}));
    } else {
      opt.add("factors", gradient_factors_json(t, r.index, r.core, r.inputs(), u.slot));
    }
    opt.add("product_order", "left_to_right");
    if (r.stateful) {
      opt.add("state_before", state_json(r.input->optimizer->name, u.state_before));
      opt.add("state_after", state_json(r.input->optimizer->name, u.state_after));
    }
    updates.push_back(
        update_json(t, r.index, u.slot, u.weight_before, opt.done(), u.gradient, u.update, u.weight_after));
  }
  return updates;
}

}  // namespace

ordered_json to_json(const GeneralReceipt& r) {
  const GeneralInput& in = *r.input;
  const auto& b = in.base;
  const auto& t = b.topology;
  ordered_json out;
  out["schema_version"] = r.schema_version;
  out["fixture"] = r.fixture;
  out["step"] = b.step_index.value_or(0) + 1;
  out["fixture_status"] = fixture_status_json();
  out["metadata"] = metadata_json(b.metadata);
  out["numeric_policy"] = b.numeric_policy.json;
  out["bias_policy"] = b.bias_policy.json;
  out["topology"] = topology_json(t);
  out["learning_rate"] = b.learning_rate;
  if (!r.batched()) {
    if (auto oj = optimizer_config_json(in.optimizer)) out["optimizer_config"] = std::move(*oj);
  }
  if (b.trace_id) out["trace_id"] = *b.trace_id;
  if (b.step_index) out["step_index"] = *b.step_index;
  if (r.batched()) {
    const Batch& batch = *in.batch;
    ordered_json order = ordered_json::array();
    for (const auto& smp : batch.samples) order.push_back(smp.id);
    out["batch"] = ordered_json{
        {"size", batch.samples.size()}, {"sample_order", std::move(order)}, {"reduction", to_string(batch.reduction)}};
  }
  out["inputs"] = value_map_json(t.unit_order.input, r.inputs());
  out["targets"] = value_map_json(t.unit_order.output, r.targets());
  out["parameters_before"] = value_map_json(t.parameter_order, b.parameters_before.data());
  if (r.batched()) {
    const Batch& batch = *in.batch;
    ordered_json per_sample = ordered_json::object();
    ordered_json per_sample_total = ordered_json::object();
    for (std::size_t s = 0; s < r.samples.size(); ++s) {
      const Sample& smp = batch.samples[s];
      const SampleRecord& rec = r.samples[s];
      per_sample[smp.id] = ordered_json{{"inputs", value_map_json(t.unit_order.input, smp.inputs.data())},
                                        {"targets", value_map_json(t.unit_order.output, smp.targets.data())},
                                        {"forward", forward_json(t, rec.forward)},
                                        {"loss", loss_json(t, rec.loss_per_output, rec.loss_total)}};
      per_sample_total[smp.id] = rec.loss_total;
    }
    out["per_sample"] = std::move(per_sample);
    out["forward"] = forward_json(t, r.core.fwd);
    out["loss"] = ordered_json{{"per_output", value_map_json(t.unit_order.output, r.reduced_loss_per_output.data())},
                               {"per_sample", std::move(per_sample_total)},
                               {"reduction", to_string(batch.reduction)},
                               {"total", r.reduced_loss_total}};
  } else {
    out["forward"] = forward_json(t, r.core.fwd);
    out["loss"] = loss_json(t, r.core.loss_o, r.core.loss_total);
  }
  out["backward"] = backward_json(t, r.index, r.core, b.parameters_before.data(), r.targets());
  out["updates"] = updates_json(r);
  out["parameters_after"] = value_map_json(t.parameter_order, r.parameters_after.data());
  out["post_update_forward"] = forward_json(t, r.post_forward, "filled");
  out["post_update_loss"] =
      ordered_json{{"status", "filled"},
                   {"per_output", value_map_json(t.unit_order.output, r.post_loss_per_output.data())},
                   {"total", r.post_loss_total}};
  return out;
}

ordered_json to_json(const EngineReceipt& receipt) {
  if (const auto* general = std::get_if<GeneralReceipt>(&receipt)) return to_json(*general);
  return std::get<ordered_json>(receipt);
}

}  // namespace receipt::engine
