#include "receipt/engine/receipt_json.hpp"

#include "receipt/engine/engine_receipt.hpp"

#include <optional>
#include <string>

#include "receipt/engine/json_object_builder.hpp"
#include "receipt/engine/receipt_blocks.hpp"
#include "receipt/layout/fields.hpp"

namespace receipt::engine {

using layout::slot;
using namespace layout::tables;
using nlohmann::ordered_json;

namespace {

// Plain SGD receipts carry no optimizer_config unless coupled L2 is on; nesterov only when true,
// dampening only when non-zero.
std::optional<ordered_json> optimizer_config_json(const std::optional<OptimizerConfig>& oc) {
  if (!oc) return std::nullopt;
  const bool decay = oc->weight_decay.value_or(0.0) != 0;
  if (oc->name == OptimizerName::sgd && !decay) return std::nullopt;
  const bool adam = oc->name == OptimizerName::adam || oc->name == OptimizerName::adamw;
  const bool momentum = oc->name == OptimizerName::sgd_momentum;
  ordered_json out = ordered_json::object();
  layout::for_each_field<kOptimizerConfig>([&](auto field) {
    constexpr auto& F = kOptimizerConfig;
    const std::string key(F[field()].key);
    const auto optional = [&](bool applies, const std::optional<double>& v) {
      if (applies) out[key] = *v;
    };
    switch (field()) {
      case slot(F, "name"): out[key] = to_string(oc->name); break;
      case slot(F, "learning_rate"): out[key] = oc->learning_rate; break;
      case slot(F, "beta1"): optional(adam, oc->beta1); break;
      case slot(F, "beta2"): optional(adam, oc->beta2); break;
      case slot(F, "epsilon"): optional(adam, oc->epsilon); break;
      case slot(F, "weight_decay"): optional(adam ? oc->name == OptimizerName::adamw : decay, oc->weight_decay); break;
      case slot(F, "t"):
        if (adam) out[key] = *oc->t;
        break;
      case slot(F, "momentum"): optional(momentum, oc->momentum); break;
      case slot(F, "nesterov"):
        if (momentum && oc->nesterov.value_or(false)) out[key] = true;
        break;
      case slot(F, "dampening"): optional(momentum && oc->dampening.value_or(0.0) != 0, oc->dampening); break;
      default: break;
    }
  });
  return out;
}

ordered_json state_json(OptimizerName name, const OptimizerState& s) {
  if (name == OptimizerName::sgd_momentum) {
    JsonObjectBuilder out(kMomentumState.size());
    layout::for_each_field<kMomentumState>([&](auto field) {
      if constexpr (field() == slot(kMomentumState, "buffer")) out.add(std::string(kMomentumState[field()].key), s.buffer);
    });
    return out.done();
  }
  JsonObjectBuilder out(kAdamState.size());
  layout::for_each_field<kAdamState>([&](auto field) {
    out.add(std::string(kAdamState[field()].key), field() == slot(kAdamState, "m") ? s.m : s.v);
  });
  return out.done();
}

ordered_json updates_json(const GeneralReceipt& r) {
  const auto& t = r.topology();
  const double lr = r.input->base.learning_rate;
  ordered_json updates = ordered_json::array();
  updates.get_ref<ordered_json::array_t&>().reserve(r.updates.size());
  for (const UpdateRecord& u : r.updates) {
    JsonObjectBuilder opt(kGeneralOptimizer.size());
    layout::for_each_field<kGeneralOptimizer>([&](auto field) {
      constexpr auto& F = kGeneralOptimizer;
      const std::string key(F[field()].key);
      switch (field()) {
        case slot(F, "name"): opt.add(key, r.optimizer_name()); break;
        case slot(F, "learning_rate"): opt.add(key, lr); break;
        case slot(F, "factors"):
          if (r.batched()) {
            opt.add(key, ordered_json::array({ordered_json{{"name", "batch_reduced_gradient"}, {"value", u.gradient}}}));
          } else {
            opt.add(key, gradient_factors_json(t, r.index, r.core, r.inputs(), u.slot));
          }
          break;
        case slot(F, "product_order"): opt.add(key, "left_to_right"); break;
        case slot(F, "state_before"):
          if (r.stateful) opt.add(key, state_json(r.input->optimizer->name, u.state_before));
          break;
        case slot(F, "state_after"):
          if (r.stateful) opt.add(key, state_json(r.input->optimizer->name, u.state_after));
          break;
        default: break;
      }
    });
    updates.push_back(
        update_json(t, r.index, u.slot, u.weight_before, opt.done(), u.gradient, u.update, u.weight_after));
  }
  return updates;
}

ordered_json batch_json(const Batch& batch) {
  ordered_json out = ordered_json::object();
  layout::for_each_field<kBatch>([&](auto field) {
    constexpr auto& F = kBatch;
    const std::string key(F[field()].key);
    switch (field()) {
      case slot(F, "size"): out[key] = batch.samples.size(); break;
      case slot(F, "sample_order"): {
        ordered_json order = ordered_json::array();
        for (const auto& smp : batch.samples) order.push_back(smp.id);
        out[key] = std::move(order);
        break;
      }
      case slot(F, "reduction"): out[key] = to_string(batch.reduction); break;
      default: break;
    }
  });
  return out;
}

ordered_json per_sample_json(const GeneralReceipt& r) {
  const auto& t = r.topology();
  const Batch& batch = *r.input->batch;
  ordered_json per_sample = ordered_json::object();
  for (std::size_t s = 0; s < r.samples.size(); ++s) {
    const Sample& smp = batch.samples[s];
    const SampleRecord& rec = r.samples[s];
    JsonObjectBuilder entry(kPerSampleEntry.size());
    layout::for_each_field<kPerSampleEntry>([&](auto field) {
      constexpr auto& F = kPerSampleEntry;
      const std::string key(F[field()].key);
      switch (field()) {
        case slot(F, "inputs"): entry.add(key, value_map_json(t.unit_order.input, smp.inputs.data())); break;
        case slot(F, "targets"): entry.add(key, value_map_json(t.unit_order.output, smp.targets.data())); break;
        case slot(F, "forward"): entry.add(key, forward_json(t, rec.forward)); break;
        case slot(F, "loss"): entry.add(key, loss_json(t, rec.loss_per_output, rec.loss_total)); break;
        default: break;
      }
    });
    per_sample[smp.id] = entry.done();
  }
  return per_sample;
}

ordered_json batched_loss_json(const GeneralReceipt& r) {
  const auto& t = r.topology();
  const Batch& batch = *r.input->batch;
  ordered_json out = ordered_json::object();
  layout::for_each_field<kGeneralLoss>([&](auto field) {
    constexpr auto& F = kGeneralLoss;
    const std::string key(F[field()].key);
    switch (field()) {
      case slot(F, "per_output"):
        out[key] = value_map_json(t.unit_order.output, r.reduced_loss_per_output.data());
        break;
      case slot(F, "per_sample"): {
        ordered_json totals = ordered_json::object();
        for (std::size_t s = 0; s < r.samples.size(); ++s) totals[batch.samples[s].id] = r.samples[s].loss_total;
        out[key] = std::move(totals);
        break;
      }
      case slot(F, "reduction"): out[key] = to_string(batch.reduction); break;
      case slot(F, "total"): out[key] = r.reduced_loss_total; break;
      default: break;
    }
  });
  return out;
}

}  // namespace

ordered_json post_update_loss_json(const GeneralReceipt& r) {
  const auto& t = r.topology();
  JsonObjectBuilder out(kPostUpdateLoss.size());
  layout::for_each_field<kPostUpdateLoss>([&](auto field) {
    constexpr auto& F = kPostUpdateLoss;
    const std::string key(F[field()].key);
    switch (field()) {
      case slot(F, "status"): out.add(key, "filled"); break;
      case slot(F, "per_output"): out.add(key, value_map_json(t.unit_order.output, r.post_loss_per_output.data())); break;
      case slot(F, "total"): out.add(key, r.post_loss_total); break;
      default: break;
    }
  });
  return out.done();
}

// The top-level fields in the order of receipt/layout/fields.hpp, as the typed writer writes them.
ordered_json to_json(const GeneralReceipt& r) {
  const GeneralInput& in = *r.input;
  const auto& b = in.base;
  const auto& t = b.topology;
  JsonObjectBuilder out(kGeneralReceipt.size());
  layout::for_each_field<kGeneralReceipt>([&](auto field) {
    constexpr auto& F = kGeneralReceipt;
    const std::string key(F[field()].key);
    switch (field()) {
      case slot(F, "schema_version"): out.add(key, r.schema_version); break;
      case slot(F, "fixture"): out.add(key, r.fixture); break;
      case slot(F, "step"): out.add(key, b.step_index.value_or(0) + 1); break;
      case slot(F, "fixture_status"): out.add(key, fixture_status_json()); break;
      case slot(F, "metadata"): out.add(key, metadata_json(b.metadata)); break;
      case slot(F, "numeric_policy"): out.add(key, b.numeric_policy.json); break;
      case slot(F, "bias_policy"): out.add(key, b.bias_policy.json); break;
      case slot(F, "topology"): out.add(key, topology_json(t)); break;
      case slot(F, "learning_rate"): out.add(key, b.learning_rate); break;
      case slot(F, "optimizer_config"):
        if (r.batched()) break;
        if (auto oj = optimizer_config_json(in.optimizer)) out.add(key, std::move(*oj));
        break;
      case slot(F, "trace_id"):
        if (b.trace_id) out.add(key, *b.trace_id);
        break;
      case slot(F, "step_index"):
        if (b.step_index) out.add(key, *b.step_index);
        break;
      case slot(F, "batch"):
        if (r.batched()) out.add(key, batch_json(*in.batch));
        break;
      case slot(F, "inputs"): out.add(key, value_map_json(t.unit_order.input, r.inputs())); break;
      case slot(F, "targets"): out.add(key, value_map_json(t.unit_order.output, r.targets())); break;
      case slot(F, "parameters_before"): out.add(key, value_map_json(t.parameter_order, b.parameters_before.data())); break;
      case slot(F, "per_sample"):
        if (r.batched()) out.add(key, per_sample_json(r));
        break;
      case slot(F, "forward"): out.add(key, forward_json(t, r.core.fwd)); break;
      case slot(F, "loss"):
        out.add(key, r.batched() ? batched_loss_json(r) : loss_json(t, r.core.loss_o, r.core.loss_total));
        break;
      case slot(F, "backward"): out.add(key, backward_json(t, r.index, r.core, b.parameters_before.data(), r.targets())); break;
      case slot(F, "updates"): out.add(key, updates_json(r)); break;
      case slot(F, "parameters_after"): out.add(key, value_map_json(t.parameter_order, r.parameters_after.data())); break;
      case slot(F, "post_update_forward"): out.add(key, forward_json(t, r.post_forward, "filled")); break;
      case slot(F, "post_update_loss"): out.add(key, post_update_loss_json(r)); break;
      default: break;  // source_framework, attestor: imported receipts only
    }
  });
  return out.done();
}

ordered_json to_json(const EngineReceipt& receipt) {
  if (const auto* general = std::get_if<GeneralReceipt>(&receipt)) return to_json(*general);
  return std::get<ordered_json>(receipt);
}

}  // namespace receipt::engine
