#include "nl/named_tensors.hpp"

namespace nl {

template <typename T>
std::vector<BasicNamedTensor<T>> named_level_tensors(const MagConfig& cfg, std::size_t l, LevelParams<T>& p) {
  const std::size_t d = cfg.d;
  const std::string pre = "levels/" + std::to_string(l) + "/";
  std::vector<BasicNamedTensor<T>> out = {
      {pre + "W_K", {d, d}, p.w_k},
      {pre + "W_V", {d, d}, p.w_v},
      {pre + "W_Q", {d, d}, p.w_q},
      {pre + "w_alpha", {2 * d}, p.w_alpha},
      {pre + "w_theta", {2 * d}, p.w_theta},
      {pre + "w_eta", {2 * d}, p.w_eta},
      {pre + "b_alpha", {}, std::span<T>(&p.b_alpha, 1)},
      {pre + "b_theta", {}, std::span<T>(&p.b_theta, 1)},
      {pre + "b_eta", {}, std::span<T>(&p.b_eta, 1)},
  };
  if (has_omega(cfg.rule)) out.push_back({pre + "W_omega", {d, 2 * d}, p.w_omega});
  return out;
}

template <typename T>
std::vector<BasicNamedTensor<T>> named_tensors(const MagConfig& cfg, MagParams<T>& p) {
  const std::size_t d = cfg.d, v = cfg.vocab;
  std::vector<BasicNamedTensor<T>> out = {{"E", {v, d}, p.e},     {"W_Q", {d, d}, p.w_q}, {"W_K", {d, d}, p.w_k},
                                  {"W_V", {d, d}, p.w_v}, {"W_O", {d, d}, p.w_o}, {"U_emb", {d, v}, p.u_emb}};
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    std::vector<BasicNamedTensor<T>> lv = named_level_tensors(cfg, l, p.levels[l]);
    out.insert(out.end(), lv.begin(), lv.end());
  }
  if (const std::size_t g = cfg.gated_levels(); g > 0) {
    out.push_back({"W_freq", {g, d}, p.w_freq});
    out.push_back({"b_freq", {g}, p.b_freq});
  }
  return out;
}

template std::vector<BasicNamedTensor<float>> named_tensors(const MagConfig&, MagParams<float>&);
template std::vector<BasicNamedTensor<double>> named_tensors(const MagConfig&, MagParams<double>&);
template std::vector<BasicNamedTensor<float>> named_level_tensors(const MagConfig&, std::size_t, LevelParams<float>&);
template std::vector<BasicNamedTensor<double>> named_level_tensors(const MagConfig&, std::size_t, LevelParams<double>&);

}  // namespace nl
