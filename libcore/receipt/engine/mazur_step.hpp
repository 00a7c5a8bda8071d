#pragma once
// The Mazur 2-2-2 engine: receipt schema v0.1.0 (fixed unit names i1 i2 h1 h2 o1 o2, weights w1..w8,
// shared biases b1 b2, sigmoid, half squared error, constant biases).
#include <nlohmann/json.hpp>

#include "common/result.hpp"

namespace receipt::engine {

struct MazurInput {
  double i1 = 0, i2 = 0;
  double t_o1 = 0, t_o2 = 0;
  double learning_rate = 0;
  double w[8] = {};
  double b1 = 0, b2 = 0;
  nlohmann::ordered_json topology;        // the v0.1.0 topology block, echoed
  nlohmann::ordered_json numeric_policy;  // echoed
  nlohmann::ordered_json bias_policy;     // echoed; mode must be "constant"
};

[[nodiscard]] MazurInput mazur_published_input();
[[nodiscard]] common::Result<nlohmann::ordered_json> run_mazur_step(const MazurInput& input);

}  // namespace receipt::engine
