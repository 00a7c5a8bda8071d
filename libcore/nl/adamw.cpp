#include "nl/adamw.hpp"

#include <cmath>
#include <numbers>

namespace nl {
namespace {

// Every tensor of a level, flat (so one loop serves gates, biases and projections).
void update_tensor(std::vector<float>& theta, const std::vector<float>& g, std::vector<float>& m,
                   std::vector<float>& v, const AdamWConfig& o, std::uint64_t tau, double lr) {
  const double c1 = 1.0 - std::pow(o.beta1, static_cast<double>(tau));
  const double c2 = 1.0 - std::pow(o.beta2, static_cast<double>(tau));
  // §10's coefficients are β and 1 − β of the configured (double) betas. Taking 1 − β from a
  // float-rounded β gave 1 − 0.999f = 0.00099998713, so v ran 1.3e-5 low against v̂'s double
  // bias correction. The moments are fp32 tensors: each update is done in double, stored once.
  const double b1 = o.beta1, b2 = o.beta2, a1 = 1.0 - o.beta1, a2 = 1.0 - o.beta2;
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const double gi = g[i];
    m[i] = static_cast<float>(b1 * m[i] + a1 * gi);
    v[i] = static_cast<float>(b2 * v[i] + a2 * gi * gi);
    const double m_hat = m[i] / c1, v_hat = v[i] / c2;
    const double upd = m_hat / (std::sqrt(v_hat) + o.eps) + o.weight_decay * theta[i];  // wd on pre-update theta
    theta[i] = static_cast<float>(theta[i] - lr * upd);
  }
}

void update_level(LevelParams<float>& p, const LevelParams<float>& g, LevelParams<float>& m, LevelParams<float>& v,
                  const AdamWConfig& o, std::uint64_t tau, double lr) {
  std::vector<float> pf = p.to_flat(), mf = m.to_flat(), vf = v.to_flat();
  update_tensor(pf, g.to_flat(), mf, vf, o, tau, lr);
  const std::size_t d = p.width();
  const bool omega = !p.w_omega.empty();
  p = LevelParams<float>::from_flat(pf, d, omega).value();
  m = LevelParams<float>::from_flat(mf, d, omega).value();
  v = LevelParams<float>::from_flat(vf, d, omega).value();
}

}  // namespace

double learning_rate(const AdamWConfig& o, std::uint64_t n) {
  if (n < o.warmup) return o.lr * static_cast<double>(n) / static_cast<double>(o.warmup);
  const double span = static_cast<double>(o.total_steps > o.warmup ? o.total_steps - o.warmup : 1);
  const double progress = std::min(1.0, static_cast<double>(n - o.warmup) / span);
  return std::max(0.0, o.lr * 0.5 * (1.0 + std::cos(std::numbers::pi * progress)));
}

double clip_global_norm(MagParams<float>& g, double clip) {
  double sq = 0;
  const std::vector<float> flat = g.to_flat();
  for (float x : flat) sq += static_cast<double>(x) * x;
  const double norm = std::sqrt(sq);
  if (norm > clip) {
    const float s = clip_scale(clip, norm);
    for (std::vector<float>* t : {&g.e, &g.w_q, &g.w_k, &g.w_v, &g.w_o, &g.u_emb, &g.w_freq, &g.b_freq})
      for (float& x : *t) x *= s;
    for (LevelParams<float>& l : g.levels) {
      for (std::vector<float>* t : {&l.w_k, &l.w_v, &l.w_q, &l.w_alpha, &l.w_theta, &l.w_eta, &l.w_omega})
        for (float& x : *t) x *= s;
      l.b_alpha *= s, l.b_theta *= s, l.b_eta *= s;
    }
  }
  return norm;
}

FrequencyAwareAdamW::FrequencyAwareAdamW(const MagConfig& cfg, AdamWConfig opt)
    : opt_(opt), m_(MagParams<float>::zeros(cfg)), v_(MagParams<float>::zeros(cfg)), tau_level_(cfg.levels(), 0) {}

void FrequencyAwareAdamW::step(MagParams<float>& p, const MagParams<float>& g, const Pulse& pulse, double lr) {
  ++tau_;
  update_tensor(p.e, g.e, m_.e, v_.e, opt_, tau_, lr);
  update_tensor(p.w_q, g.w_q, m_.w_q, v_.w_q, opt_, tau_, lr);
  update_tensor(p.w_k, g.w_k, m_.w_k, v_.w_k, opt_, tau_, lr);
  update_tensor(p.w_v, g.w_v, m_.w_v, v_.w_v, opt_, tau_, lr);
  update_tensor(p.w_o, g.w_o, m_.w_o, v_.w_o, opt_, tau_, lr);
  update_tensor(p.u_emb, g.u_emb, m_.u_emb, v_.u_emb, opt_, tau_, lr);
  // The frequency gate (learned schedule; empty otherwise) sees every chunk: attention group.
  update_tensor(p.w_freq, g.w_freq, m_.w_freq, v_.w_freq, opt_, tau_, lr);
  update_tensor(p.b_freq, g.b_freq, m_.b_freq, v_.b_freq, opt_, tau_, lr);
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    if (!pulse.is_active(l)) continue;  // frozen: no moments, no count, no change
    ++tau_level_[l];
    update_level(p.levels[l], g.levels[l], m_.levels[l], v_.levels[l], opt_, tau_level_[l], lr);
  }
}

}  // namespace nl
