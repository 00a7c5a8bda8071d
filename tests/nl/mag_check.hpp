#pragma once
// Shared set-up of the MAG model tests: configurations per rule and K, stress parameters and
// contexts, the data of nltrain-math §11 and a mixed active/frozen pulse per K.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"
#include "nl/initial_state.hpp"
#include "nl/mag_params.hpp"
#include "rule_check.hpp"

namespace nltest {

inline nl::MagConfig mag_config(nl::RuleKind rule, std::size_t k) {
  nl::MagConfig cfg;
  cfg.vocab = 16, cfg.d = 8, cfg.heads = 2, cfg.seq_len = 4, cfg.window = 4;
  cfg.rule = rule;
  cfg.rule_cfg.d = 8, cfg.rule_cfg.d_h = 4, cfg.rule_cfg.m = 4, cfg.rule_cfg.d_c = 8;
  cfg.rule_cfg.lambda_k = cfg.rule_cfg.lambda_v = 0.01;
  cfg.rule_cfg.lambda_loc = rule == nl::RuleKind::yaad ? 0.01 : 0.0;
  const std::vector<std::size_t> periods[] = {{1}, {1, 8}, {1, 8, 64, 512}};
  cfg.periods = periods[k == 1 ? 0 : k == 2 ? 1 : 2];
  return cfg;
}

inline std::vector<std::size_t> chunk_ids(const nl::MagConfig& cfg) {
  std::vector<std::size_t> ids(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) ids[t] = t % cfg.vocab;
  return ids;
}
inline std::vector<std::size_t> chunk_targets(const nl::MagConfig& cfg) {
  std::vector<std::size_t> tg(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) tg[t] = (t + 1) % cfg.vocab;
  return tg;
}

// Levels alternate active / frozen (level 0 active): [1], [1,0], [1,0,1,0].
inline nl::Pulse mixed_pulse(std::size_t k) {
  nl::Pulse p;
  for (std::size_t l = 0; l < k; ++l) p.active.push_back(l % 2 == 0);
  return p;
}

// Stress variant of §11: all gate biases 0, every weight x3, random initial memory.
inline nl::MagParams<double> stress_params(const nl::MagConfig& cfg) {
  nl::MagParams<double> p = nl::MagParams<double>::init(cfg).cast<double>();
  for (std::vector<double>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb})
    for (double& x : *t) x *= 3;
  for (nl::LevelParams<double>& l : p.levels) {
    for (std::vector<double>* t : {&l.w_k, &l.w_v, &l.w_q, &l.w_alpha, &l.w_theta, &l.w_eta, &l.w_omega})
      for (double& x : *t) x *= 3;
    l.b_alpha = l.b_theta = l.b_eta = 0;
  }
  return p;
}

inline nl::ContextMemory<double> stress_context(const nl::MagConfig& cfg, unsigned seed) {
  std::mt19937 rng(seed);
  nl::ContextMemory<double> c;
  for (std::size_t l = 0; l < cfg.levels(); ++l) c.levels.push_back(random_state(cfg.rule, cfg.rule_cfg, rng));
  return c;
}

template <typename U>
nl::ContextMemory<U> cast_context(const nl::ContextMemory<double>& c) {
  nl::ContextMemory<U> out;
  for (const auto& l : c.levels) out.levels.push_back(cast<U>(l));
  return out;
}

// Gradient as one flat vector in MagParams order, frozen levels' error contributions in place
// of their (zero) returned gradient: the gradient of the loss with respect to every parameter.
template <typename T>
std::vector<T> full_gradient(const nl::MagGradients<T>& g, const nl::Pulse& pulse) {
  nl::MagParams<T> merged = g.params;
  for (std::size_t l = 0; l < merged.levels.size(); ++l)
    if (!pulse.is_active(l)) merged.levels[l] = g.error[l];
  return merged.to_flat();
}

}  // namespace nltest
