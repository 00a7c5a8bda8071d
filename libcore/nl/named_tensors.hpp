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

// T: float, or double for an fp64 trainer's state (nltrain train --fp64).
template <typename T>
struct BasicNamedTensor {
  std::string name;
  std::vector<std::size_t> shape;  // empty for a scalar
  std::span<T> data;
};
using NamedTensor = BasicNamedTensor<float>;

// Views into `p`, which must be shaped for cfg (MagParams::zeros / init); valid while p lives.
template <typename T>
[[nodiscard]] std::vector<BasicNamedTensor<T>> named_tensors(const MagConfig& cfg, MagParams<T>& p);
template <typename T>
[[nodiscard]] std::vector<BasicNamedTensor<T>> named_level_tensors(const MagConfig& cfg, std::size_t level,
                                                                   LevelParams<T>& p);

extern template std::vector<BasicNamedTensor<float>> named_tensors(const MagConfig&, MagParams<float>&);
extern template std::vector<BasicNamedTensor<double>> named_tensors(const MagConfig&, MagParams<double>&);
extern template std::vector<BasicNamedTensor<float>> named_level_tensors(const MagConfig&, std::size_t, LevelParams<float>&);
extern template std::vector<BasicNamedTensor<double>> named_level_tensors(const MagConfig&, std::size_t, LevelParams<double>&);

}  // namespace nl
