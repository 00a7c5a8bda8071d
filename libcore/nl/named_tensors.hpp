#pragma once
// Every MAG parameter by its external name, with its shape and a view of its data: "E", "W_Q",
// "W_K", "W_V", "W_O", "U_emb", then "levels/<l>/W_K", ".../W_V", ".../W_Q", ".../w_alpha",
// ".../w_theta", ".../w_eta", ".../b_alpha", ".../b_theta", ".../b_eta" (shape []) and, for
// Atlas, ".../W_omega"; with a learned schedule "W_freq" and "b_freq" last. The JSON state (state_json.hpp) and reports use these names.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"

namespace nl {

struct NamedTensor {
  std::string name;
  std::vector<std::size_t> shape;  // empty for a scalar
  std::span<float> data;
};

// Views into `p`, which must be shaped for cfg (MagParams::zeros / init); valid while p lives.
[[nodiscard]] std::vector<NamedTensor> named_tensors(const MagConfig& cfg, MagParams<float>& p);
[[nodiscard]] std::vector<NamedTensor> named_level_tensors(const MagConfig& cfg, std::size_t level,
                                                           LevelParams<float>& p);

}  // namespace nl
