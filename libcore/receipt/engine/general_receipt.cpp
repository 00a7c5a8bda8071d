#include "receipt/engine/general_receipt.hpp"

#include <string>

#include "receipt/engine/optimizer.hpp"
#include "receipt/engine/step_validation.hpp"

namespace receipt::engine {

using topology::Loss;

const double* GeneralReceipt::inputs() const {
  return batched() ? input->batch->samples[0].inputs.data() : input->base.inputs.data();
}

const double* GeneralReceipt::targets() const {
  return batched() ? input->batch->samples[0].targets.data() : input->base.targets.data();
}

const char* GeneralReceipt::optimizer_name() const {
  return stateful ? to_string(input->optimizer->name) : "sgd";
}

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

namespace {

// The forward pass and loss after the update, on the receipt's (first) sample.
void finish_with_post_update(GeneralReceipt& r) {
  const auto& t = r.topology();
  run_forward(t, r.index, r.inputs(), r.parameters_after.data(), r.post_forward);
  r.post_loss_total = compute_loss(t.loss, r.targets(), r.post_forward.out_o.data(), r.index.n_out,
                                   r.post_loss_per_output);
}

GeneralReceipt start_receipt(std::shared_ptr<const GeneralInput> input, topology::TopologyIndex index) {
  GeneralReceipt r;
  r.input = std::move(input);
  r.index = std::move(index);
  return r;
}

}  // namespace

common::Result<GeneralReceipt> compute_general_step(std::shared_ptr<const GeneralInput> input) {
  auto checked = check_general_input(*input);
  if (!checked) return checked.error();
  GeneralReceipt r = start_receipt(std::move(input), std::move(*checked));
  const GeneralInput& in = *r.input;
  const auto& b = in.base;
  r.schema_version = schema_version_for(in);
  r.fixture = b.fixture.value_or("general-engine-first-run");
  const double* before = b.parameters_before.data();
  compute_step(b.topology, r.index, b.bias_policy.mode, r.inputs(), r.targets(), before, r.core);

  const OptimizerConfig* oc = in.optimizer ? &*in.optimizer : nullptr;
  r.stateful = oc != nullptr && oc->name != OptimizerName::sgd;
  r.parameters_after = b.parameters_before;
  const std::size_t np = r.index.slots.size();
  r.updates.reserve(np);
  for (std::size_t k = 0; k < np; ++k) {
    if (!r.core.updated[k]) continue;
    UpdateRecord u;
    u.slot = static_cast<std::uint32_t>(k);
    u.weight_before = before[k];
    u.gradient = r.core.grad[k];
    if (r.stateful) u.state_before = *(*in.state_before)[k];
    const ParameterUpdate p = apply_optimizer(oc, b.learning_rate, before[k], u.gradient, u.state_before);
    u.update = p.update;
    u.weight_after = p.weight_after;
    u.state_after = p.state_after;
    r.parameters_after[k] = p.weight_after;
    r.updates.push_back(u);
  }
  finish_with_post_update(r);
  return r;
}

common::Result<GeneralReceipt> compute_batched_general_step(std::shared_ptr<const GeneralInput> input) {
  auto checked = check_batched_input(*input);
  if (!checked) return checked.error();
  GeneralReceipt r = start_receipt(std::move(input), std::move(*checked));
  const GeneralInput& in = *r.input;
  const auto& b = in.base;
  const auto& t = b.topology;
  const Batch& batch = *in.batch;
  const std::size_t n = batch.samples.size();
  const std::size_t np = r.index.slots.size();
  const std::size_t n_out = r.index.n_out;
  const double* before = b.parameters_before.data();

  // The batched receipt has the schema version of a plain per-sample receipt: no optimizer block.
  GeneralInput plain;
  plain.base.topology.loss = t.loss;
  plain.base.topology.activation_output = t.activation_output;
  r.schema_version = schema_version_for(plain);
  r.fixture = b.fixture.value_or("batched-" + std::to_string(n) + "-sample-step");

  // Per-sample steps are computed without the optimizer (the reference re-runs plain steps), then
  // reduced: mean = (0 + g1 + ... + gn) / n, sum = 0 + g1 + ..., none = g1.
  StepCore scratch;
  std::vector<double> grad_acc(np, 0.0);
  std::vector<double> loss_o_acc(n_out, 0.0);
  double loss_total_acc = 0;
  r.samples.resize(n);
  for (std::size_t s = 0; s < n; ++s) {
    const Sample& smp = batch.samples[s];
    StepCore& c = s == 0 ? r.core : scratch;
    compute_step(t, r.index, b.bias_policy.mode, smp.inputs.data(), smp.targets.data(), before, c);
    for (std::size_t k = 0; k < np; ++k) grad_acc[k] = grad_acc[k] + c.grad[k];
    for (std::size_t o = 0; o < n_out; ++o) loss_o_acc[o] = loss_o_acc[o] + c.loss_o[o];
    loss_total_acc = loss_total_acc + c.loss_total;
    r.samples[s] = SampleRecord{c.fwd, c.loss_o, c.loss_total};
  }
  const auto reduce = [&](double acc, double first_value) {
    switch (batch.reduction) {
      case Reduction::mean: return acc / static_cast<double>(n);
      case Reduction::sum: return acc;
      case Reduction::none: return first_value;
    }
    return acc;
  };

  const double lr = b.learning_rate;
  r.parameters_after = b.parameters_before;
  r.updates.reserve(np);
  for (std::size_t k = 0; k < np; ++k) {
    if (!r.core.updated[k]) continue;
    UpdateRecord u;
    u.slot = static_cast<std::uint32_t>(k);
    u.weight_before = before[k];
    u.gradient = reduce(grad_acc[k], r.core.grad[k]);
    u.update = lr * u.gradient;
    u.weight_after = before[k] + u.update;
    r.parameters_after[k] = u.weight_after;
    r.updates.push_back(u);
  }
  r.reduced_loss_per_output.resize(n_out);
  for (std::size_t o = 0; o < n_out; ++o) r.reduced_loss_per_output[o] = reduce(loss_o_acc[o], r.core.loss_o[o]);
  r.reduced_loss_total = reduce(loss_total_acc, r.core.loss_total);
  finish_with_post_update(r);
  return r;
}

}  // namespace receipt::engine
