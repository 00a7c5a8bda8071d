#include "nl/named_tensors.hpp"

namespace nl {

std::vector<NamedTensor> named_level_tensors(const MagConfig& cfg, std::size_t l, LevelParams<float>& p) {
  const std::size_t d = cfg.d;
  const std::string pre = "levels/" + std::to_string(l) + "/";
  std::vector<NamedTensor> out = {
      {pre + "W_K", {d, d}, p.w_k},
      {pre + "W_V", {d, d}, p.w_v},
      {pre + "W_Q", {d, d}, p.w_q},
      {pre + "w_alpha", {2 * d}, p.w_alpha},
      {pre + "w_theta", {2 * d}, p.w_theta},
      {pre + "w_eta", {2 * d}, p.w_eta},
      {pre + "b_alpha", {}, std::span<float>(&p.b_alpha, 1)},
      {pre + "b_theta", {}, std::span<float>(&p.b_theta, 1)},
      {pre + "b_eta", {}, std::span<float>(&p.b_eta, 1)},
  };
  if (has_omega(cfg.rule)) out.push_back({pre + "W_omega", {d, 2 * d}, p.w_omega});
  return out;
}

std::vector<NamedTensor> named_tensors(const MagConfig& cfg, MagParams<float>& p) {
  const std::size_t d = cfg.d, v = cfg.vocab;
  std::vector<NamedTensor> out = {{"E", {v, d}, p.e},     {"W_Q", {d, d}, p.w_q}, {"W_K", {d, d}, p.w_k},
                                  {"W_V", {d, d}, p.w_v}, {"W_O", {d, d}, p.w_o}, {"U_emb", {d, v}, p.u_emb}};
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    std::vector<NamedTensor> lv = named_level_tensors(cfg, l, p.levels[l]);
    out.insert(out.end(), lv.begin(), lv.end());
  }
  if (const std::size_t g = cfg.gated_levels(); g > 0) {
    out.push_back({"W_freq", {g, d}, p.w_freq});
    out.push_back({"b_freq", {g}, p.b_freq});
  }
  return out;
}

}  // namespace nl
