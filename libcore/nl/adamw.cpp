#include "nl/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <numbers>

namespace nl {
namespace {

// One tensor's update, as views (a level's scalar biases are tensors of one value), with the
// step count of its group.
template <typename T>
struct TensorUpdate {
  std::span<T> theta;
  std::span<const T> g;
  std::span<T> m, v;
  std::uint64_t tau = 0;
};

// Elements [begin, end) of u. Each element's update reads only that element, so how a tensor is
// split (and over how many threads) cannot change a bit.
template <typename T>
void update_range(const TensorUpdate<T>& u, std::size_t begin, std::size_t end, const AdamWConfig& o, double lr) {
  const double c1 = 1.0 - std::pow(o.beta1, static_cast<double>(u.tau));
  const double c2 = 1.0 - std::pow(o.beta2, static_cast<double>(u.tau));
  // §10's coefficients are β and 1 − β of the configured (double) betas. Taking 1 − β from a
  // float-rounded β gave 1 − 0.999f = 0.00099998713, so v ran 1.3e-5 low against v̂'s double
  // bias correction. The moments are fp32 tensors: each update is done in double, stored once
  // (an fp64 run's are double: the same expressions, no rounding at the store).
  const double b1 = o.beta1, b2 = o.beta2, a1 = 1.0 - o.beta1, a2 = 1.0 - o.beta2;
  std::span<T> theta = u.theta, m = u.m, v = u.v;
  for (std::size_t i = begin; i < end; ++i) {
    const double gi = u.g[i];
    m[i] = static_cast<T>(b1 * m[i] + a1 * gi);
    v[i] = static_cast<T>(b2 * v[i] + a2 * gi * gi);
    const double m_hat = m[i] / c1, v_hat = v[i] / c2;
    const double upd = m_hat / (std::sqrt(v_hat) + o.eps) + o.weight_decay * theta[i];  // wd on pre-update theta
    theta[i] = static_cast<T>(theta[i] - lr * upd);
  }
}

template <typename T>
void add_tensor(std::vector<TensorUpdate<T>>& out, std::vector<T>& p, const std::vector<T>& g, std::vector<T>& m,
                std::vector<T>& v, std::uint64_t tau) {
  out.push_back({p, g, m, v, tau});
}

// A level's tensors, field by field: the same element-wise updates as over its flat vector.
template <typename T>
void add_level(std::vector<TensorUpdate<T>>& out, LevelParams<T>& p, const LevelParams<T>& g, LevelParams<T>& m,
               LevelParams<T>& v, std::uint64_t tau) {
  using F = std::vector<T> LevelParams<T>::*;
  for (F f : {&LevelParams<T>::w_k, &LevelParams<T>::w_v, &LevelParams<T>::w_q, &LevelParams<T>::w_alpha,
              &LevelParams<T>::w_theta, &LevelParams<T>::w_eta, &LevelParams<T>::w_omega}) {
    add_tensor(out, p.*f, g.*f, m.*f, v.*f, tau);
  }
  using S = T LevelParams<T>::*;
  for (S f : {&LevelParams<T>::b_alpha, &LevelParams<T>::b_theta, &LevelParams<T>::b_eta}) {
    out.push_back({std::span(&(p.*f), 1), std::span(&(g.*f), 1), std::span(&(m.*f), 1), std::span(&(v.*f), 1), tau});
  }
}

// Elements per task when the update runs on a pool.
constexpr std::size_t kUpdateBlock = 8192;

}  // namespace

double learning_rate(const AdamWConfig& o, std::uint64_t n) {
  if (n < o.warmup) return o.lr * static_cast<double>(n) / static_cast<double>(o.warmup);
  const double span = static_cast<double>(o.total_steps > o.warmup ? o.total_steps - o.warmup : 1);
  const double progress = std::min(1.0, static_cast<double>(n - o.warmup) / span);
  return std::max(0.0, o.lr * 0.5 * (1.0 + std::cos(std::numbers::pi * progress)));
}

template <typename T>
double clip_global_norm(MagParams<T>& g, double clip) {
  double sq = 0;
  const std::vector<T> flat = g.to_flat();
  for (T x : flat) sq += static_cast<double>(x) * x;
  const double norm = std::sqrt(sq);
  if (norm > clip) {
    const T s = clip_scale<T>(clip, norm);
    for (std::vector<T>* t : {&g.e, &g.w_q, &g.w_k, &g.w_v, &g.w_o, &g.u_emb, &g.w_freq, &g.b_freq})
      for (T& x : *t) x *= s;
    for (LevelParams<T>& l : g.levels) {
      for (std::vector<T>* t : {&l.w_k, &l.w_v, &l.w_q, &l.w_alpha, &l.w_theta, &l.w_eta, &l.w_omega})
        for (T& x : *t) x *= s;
      l.b_alpha *= s, l.b_theta *= s, l.b_eta *= s;
    }
  }
  return norm;
}

template <typename T>
BasicFrequencyAwareAdamW<T>::BasicFrequencyAwareAdamW(const MagConfig& cfg, AdamWConfig opt)
    : opt_(opt), m_(MagParams<T>::zeros(cfg)), v_(MagParams<T>::zeros(cfg)), tau_level_(cfg.levels(), 0) {}

template <typename T>
void BasicFrequencyAwareAdamW<T>::step(MagParams<T>& p, const MagParams<T>& g, const Pulse& pulse, double lr,
                                       common::WorkerPool* pool) {
  ++tau_;
  std::vector<TensorUpdate<T>> updates;
  add_tensor(updates, p.e, g.e, m_.e, v_.e, tau_);
  add_tensor(updates, p.w_q, g.w_q, m_.w_q, v_.w_q, tau_);
  add_tensor(updates, p.w_k, g.w_k, m_.w_k, v_.w_k, tau_);
  add_tensor(updates, p.w_v, g.w_v, m_.w_v, v_.w_v, tau_);
  add_tensor(updates, p.w_o, g.w_o, m_.w_o, v_.w_o, tau_);
  add_tensor(updates, p.u_emb, g.u_emb, m_.u_emb, v_.u_emb, tau_);
  // The frequency gate (learned schedule; empty otherwise) sees every chunk: attention group.
  add_tensor(updates, p.w_freq, g.w_freq, m_.w_freq, v_.w_freq, tau_);
  add_tensor(updates, p.b_freq, g.b_freq, m_.b_freq, v_.b_freq, tau_);
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    if (!pulse.is_active(l)) continue;  // frozen: no moments, no count, no change
    ++tau_level_[l];
    add_level(updates, p.levels[l], g.levels[l], m_.levels[l], v_.levels[l], tau_level_[l]);
  }
  if (pool == nullptr || pool->threads() == 1) {
    for (const TensorUpdate<T>& u : updates) update_range(u, 0, u.theta.size(), opt_, lr);
    return;
  }
  struct Block {
    std::size_t update, begin, end;
  };
  std::vector<Block> blocks;
  for (std::size_t k = 0; k < updates.size(); ++k) {
    for (std::size_t i = 0; i < updates[k].theta.size(); i += kUpdateBlock) {
      blocks.push_back({k, i, std::min(updates[k].theta.size(), i + kUpdateBlock)});
    }
  }
  pool->run(blocks.size(), [&](std::size_t j) { update_range(updates[blocks[j].update], blocks[j].begin, blocks[j].end, opt_, lr); });
}

template double clip_global_norm<float>(MagParams<float>&, double);
template double clip_global_norm<double>(MagParams<double>&, double);
template class BasicFrequencyAwareAdamW<float>;
template class BasicFrequencyAwareAdamW<double>;

}  // namespace nl
