#pragma once
// AdamW's configuration and the coefficients one group's update uses in one step (nltrain-math
// §10), computed once on the host so that the host's update_range and a device's AdamW body
// (libgpu/gpu/bodies/adamw.hpp) multiply by the same doubles: pow is the host's libm either way.
#include <cstdint>

namespace nl {

struct AdamWConfig {
  double lr = 3e-4;  // peak
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0.1;
  double clip = 1.0;
  std::uint64_t warmup = 0, total_steps = 1;
};

struct AdamWCoefficients {
  double b1 = 0, b2 = 0, a1 = 0, a2 = 0;  // beta and 1 - beta of the configured (double) betas
  double c1 = 0, c2 = 0;                  // bias corrections 1 - beta^tau of the group's count tau
  double eps = 0, wd = 0, lr = 0;
};

// tau >= 1: the group's step count after this step's increment; lr: this step's learning rate.
[[nodiscard]] AdamWCoefficients adamw_coefficients(const AdamWConfig& o, std::uint64_t tau, double lr);

}  // namespace nl
