#pragma once
// Everything runGeneralStep-equivalent engines take: the topology input plus the optimizer surface
// (SGD with coupled L2, SGD momentum with dampening / Nesterov, Adam, AdamW) and an optional batch.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "receipt/topology/topology_input.hpp"

namespace receipt::engine {

enum class OptimizerName { sgd, sgd_momentum, adam, adamw };
[[nodiscard]] const char* to_string(OptimizerName n);

struct OptimizerConfig {
  OptimizerName name = OptimizerName::sgd;
  double learning_rate = 0;
  std::optional<double> beta1{}, beta2{}, epsilon{};  // adam / adamw
  std::optional<std::int64_t> t{};              // adam / adamw, 1-based
  std::optional<double> weight_decay{};         // adamw: decoupled; sgd / sgd_momentum: coupled L2
  std::optional<double> momentum{};             // sgd_momentum
  std::optional<bool> nesterov{};               // sgd_momentum
  std::optional<double> dampening{};            // sgd_momentum
};

// Per-parameter optimizer state; which fields mean something depends on the optimizer.
struct OptimizerState {
  double m = 0;       // adam / adamw first moment
  double v = 0;       // adam / adamw second moment
  double buffer = 0;  // sgd_momentum buffer (descent space)
};

enum class Reduction { mean, sum, none };
[[nodiscard]] const char* to_string(Reduction r);

// Maximum samples in one batched step (the reference's MAX_BATCH_SAMPLES).
inline constexpr std::size_t kMaxBatchSamples = 10'000;

struct Sample {
  std::string id;
  std::vector<double> inputs;   // aligned with unit_order.input
  std::vector<double> targets;  // aligned with unit_order.output
};

struct Batch {
  std::vector<Sample> samples;  // in sample_order
  Reduction reduction = Reduction::mean;
};

struct GeneralInput {
  topology::TopologyInput base;
  std::optional<OptimizerConfig> optimizer;
  // Aligned with parameter_order; nullopt for parameters that get no update (constant biases).
  std::optional<std::vector<std::optional<OptimizerState>>> state_before;
  std::optional<Batch> batch;  // batched step: base.inputs/targets are ignored
};

}  // namespace receipt::engine
