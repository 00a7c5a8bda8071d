#include "receipt/engine/step_validation.hpp"

#include <cmath>
#include <string>
#include <unordered_set>

#include "receipt/engine/optimizer.hpp"

namespace receipt::engine {
namespace {

common::Error engine_error(std::string message, std::string path = {}) {
  return common::Error::invalid_argument(std::move(message), common::Location{{}, 0, std::move(path)});
}

common::Status check_values(const std::vector<double>& values, const std::vector<std::string>& ids,
                            const char* field) {
  if (values.size() != ids.size()) {
    return engine_error(std::string(field) + " has " + std::to_string(values.size()) + " values for " +
                            std::to_string(ids.size()) + " ids",
                        std::string("/") + field);
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      return engine_error(std::string(field) + " '" + ids[i] + "' is not finite", std::string("/") + field + "/" + ids[i]);
    }
  }
  return {};
}

common::Status check_targets_normalized(const topology::Topology& t, const std::vector<double>& y,
                                        const std::string& path) {
  if (t.loss != topology::Loss::cross_entropy_softmax) return {};
  double sum = 0;
  for (const double v : y) sum = sum + v;
  if (std::fabs(sum - 1) > kTargetNormalizationAtol) {
    return engine_error("cross_entropy_softmax targets must sum to 1 (within 1e-9)", path);
  }
  return {};
}

common::Status check_optimizer(const GeneralInput& in, const topology::TopologyIndex& ix) {
  const auto& oc = in.optimizer;
  const bool stateful = oc && oc->name != OptimizerName::sgd;
  if (!stateful) {
    if (in.state_before) return engine_error("optimizer state is given but the optimizer is plain sgd", "/optimizer_state_before");
    if (oc) return check_optimizer_config(*oc, in.base.learning_rate);
    return {};
  }
  if (auto s = check_optimizer_config(*oc, in.base.learning_rate); !s) return s;
  if (!in.state_before) {
    return engine_error(std::string("optimizer state_before is required for ") + to_string(oc->name));
  }
  const auto& states = *in.state_before;
  if (states.size() != ix.slots.size()) return engine_error("optimizer state does not cover parameter_order");
  const bool constant_bias = in.base.bias_policy.mode == topology::BiasMode::constant;
  for (std::size_t k = 0; k < ix.slots.size(); ++k) {
    const auto role = ix.slots[k].role;
    const bool bias = role == topology::Role::hidden_bias || role == topology::Role::output_bias;
    if (bias && constant_bias) continue;
    const std::string& id = in.base.topology.parameter_order[k];
    if (!states[k]) return engine_error("optimizer state_before has no entry for parameter '" + id + "'");
    const OptimizerState& s = *states[k];
    if (oc->name == OptimizerName::sgd_momentum) {
      if (!std::isfinite(s.buffer)) return engine_error("optimizer state buffer of '" + id + "' is not finite");
    } else if (!std::isfinite(s.m) || !std::isfinite(s.v) || s.v < 0) {
      return engine_error("optimizer state of '" + id + "' needs finite m and finite v >= 0");
    }
  }
  return {};
}

common::Result<topology::TopologyIndex> check_common(const GeneralInput& in) {
  const auto& b = in.base;
  auto ix = topology::index_topology(b.topology);
  if (!ix) return topology::under_path(ix.error(), "/topology");
  if (!std::isfinite(b.learning_rate) || !(b.learning_rate > 0)) {
    return engine_error("learning_rate must be a finite number > 0", "/learning_rate");
  }
  if (b.bias_policy.mode == topology::BiasMode::sgd && b.topology.bias_sharing == topology::BiasSharing::per_layer) {
    return engine_error("bias_policy.mode 'sgd' needs bias_sharing 'per_neuron'", "/bias_policy/mode");
  }
  if (b.trace_id && b.trace_id->empty()) return engine_error("trace_id must not be empty", "/trace_id");
  // step = step_index + 1 must stay an exact JavaScript integer.
  if (b.step_index && (*b.step_index < 0 || *b.step_index > (std::int64_t{1} << 53) - 2)) {
    return engine_error("step_index must be in [0, 2^53 - 2]", "/step_index");
  }
  if (auto s = check_values(b.parameters_before, b.topology.parameter_order, "parameters_before"); !s) {
    return s.error();
  }
  return ix;
}

}  // namespace

common::Result<topology::TopologyIndex> check_general_input(const GeneralInput& in) {
  if (in.batch) return engine_error("a batched input needs the batched step");
  auto ix = check_common(in);
  if (!ix) return ix;
  const auto& b = in.base;
  if (auto s = check_values(b.inputs, b.topology.unit_order.input, "inputs"); !s) return s.error();
  if (auto s = check_values(b.targets, b.topology.unit_order.output, "targets"); !s) return s.error();
  if (auto s = check_targets_normalized(b.topology, b.targets, "/targets"); !s) return s.error();
  if (auto s = check_optimizer(in, *ix); !s) return s.error();
  return ix;
}

common::Result<topology::TopologyIndex> check_batched_input(const GeneralInput& in) {
  if (!in.batch) return engine_error("no batch given", "/batch");
  if (in.optimizer && in.optimizer->name != OptimizerName::sgd) {
    return engine_error("batched steps support plain sgd only", "/optimizer_config/name");
  }
  if (in.state_before) return engine_error("batched steps take no optimizer state", "/optimizer_state_before");
  auto ix = check_common(in);
  if (!ix) return ix;
  const Batch& batch = *in.batch;
  if (batch.samples.empty() || batch.samples.size() > kMaxBatchSamples) {
    return engine_error("batch size must be 1.." + std::to_string(kMaxBatchSamples), "/batch/size");
  }
  if (batch.reduction == Reduction::none && batch.samples.size() > 1) {
    return engine_error("reduction 'none' would drop samples 2..n; use mean or sum", "/batch/reduction");
  }
  std::unordered_set<std::string> ids;
  for (const Sample& s : batch.samples) {
    if (!ids.insert(s.id).second) return engine_error("duplicate sample id '" + s.id + "'", "/batch/sample_order");
    const std::string path = "/per_sample/" + s.id;
    if (auto st = check_values(s.inputs, in.base.topology.unit_order.input, "inputs"); !st) {
      return st.error().at_path(path + "/inputs");
    }
    if (auto st = check_values(s.targets, in.base.topology.unit_order.output, "targets"); !st) {
      return st.error().at_path(path + "/targets");
    }
    if (auto st = check_targets_normalized(in.base.topology, s.targets, path + "/targets"); !st) return st.error();
  }
  return ix;
}

}  // namespace receipt::engine
