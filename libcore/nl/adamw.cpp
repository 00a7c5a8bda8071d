#include "nl/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <numbers>
#include <type_traits>

namespace nl {
namespace {

// One tensor's update, as views (a level's scalar biases are tensors of one value), with the
// step count of its group.
template <typename T>
struct TensorUpdate {
  std::span<T> theta;
  std::span<const T> g;
  std::span<T> m, v;
  AdamWCoefficients k;  // of the tensor's group
};

// Elements [begin, end) of u. Each element's update reads only that element, so how a tensor is
// split (and over how many threads) cannot change a bit. libgpu's AdamWBody (gpu/bodies/adamw.hpp)
// is this loop's body for a device: the same operations in the same order, never contracted
// (this file is built with -ffp-contract=off; see CMakeLists.txt), so the two agree bit for bit.
template <typename T>
void update_range(const TensorUpdate<T>& u, std::size_t begin, std::size_t end, const AdamWCoefficients& k) {
  std::span<T> theta = u.theta, m = u.m, v = u.v;
  for (std::size_t i = begin; i < end; ++i) {
    const double gi = u.g[i];
    m[i] = static_cast<T>(k.b1 * m[i] + k.a1 * gi);
    v[i] = static_cast<T>(k.b2 * v[i] + k.a2 * gi * gi);
    const double m_hat = m[i] / k.c1, v_hat = v[i] / k.c2;
    const double upd = m_hat / (std::sqrt(v_hat) + k.eps) + k.wd * theta[i];  // wd on pre-update theta
    theta[i] = static_cast<T>(theta[i] - k.lr * upd);
  }
}

template <typename T>
void add_tensor(std::vector<TensorUpdate<T>>& out, std::vector<T>& p, const std::vector<T>& g, std::vector<T>& m,
                std::vector<T>& v, const AdamWCoefficients& k) {
  out.push_back({p, g, m, v, k});
}

// A level's tensors, field by field: the same element-wise updates as over its flat vector.
template <typename T>
void add_level(std::vector<TensorUpdate<T>>& out, LevelParams<T>& p, const LevelParams<T>& g, LevelParams<T>& m,
               LevelParams<T>& v, const AdamWCoefficients& k) {
  using F = std::vector<T> LevelParams<T>::*;
  for (F f : {&LevelParams<T>::w_k, &LevelParams<T>::w_v, &LevelParams<T>::w_q, &LevelParams<T>::w_alpha,
              &LevelParams<T>::w_theta, &LevelParams<T>::w_eta, &LevelParams<T>::w_omega}) {
    add_tensor(out, p.*f, g.*f, m.*f, v.*f, k);
  }
  using S = T LevelParams<T>::*;
  for (S f : {&LevelParams<T>::b_alpha, &LevelParams<T>::b_theta, &LevelParams<T>::b_eta}) {
    out.push_back({std::span(&(p.*f), 1), std::span(&(g.*f), 1), std::span(&(m.*f), 1), std::span(&(v.*f), 1), k});
  }
}

// How many values MagParams::to_flat gives, without building it.
template <typename T>
std::size_t flat_count(const MagConfig& cfg, const MagParams<T>& p) {
  std::size_t n = p.levels.size() * LevelParams<T>::flat_size(cfg.d, has_omega(cfg.rule));
  for (const std::vector<T>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb, &p.w_freq, &p.b_freq}) n += t->size();
  return n;
}

// Elements per task when the update runs on a pool.
constexpr std::size_t kUpdateBlock = 8192;

}  // namespace

AdamWCoefficients adamw_coefficients(const AdamWConfig& o, std::uint64_t tau, double lr) {
  AdamWCoefficients k;
  // §10's coefficients are β and 1 − β of the configured (double) betas. Taking 1 − β from a
  // float-rounded β gave 1 − 0.999f = 0.00099998713, so v ran 1.3e-5 low against v̂'s double
  // bias correction. The moments are fp32 tensors: each update is done in double, stored once
  // (an fp64 run's are double: the same expressions, no rounding at the store).
  k.b1 = o.beta1, k.b2 = o.beta2, k.a1 = 1.0 - o.beta1, k.a2 = 1.0 - o.beta2;
  k.c1 = 1.0 - std::pow(o.beta1, static_cast<double>(tau));
  k.c2 = 1.0 - std::pow(o.beta2, static_cast<double>(tau));
  k.eps = o.eps, k.wd = o.weight_decay, k.lr = lr;
  return k;
}

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
    : opt_(opt), cfg_(cfg), m_(MagParams<T>::zeros(cfg)), v_(MagParams<T>::zeros(cfg)), tau_level_(cfg.levels(), 0) {}

template <typename T>
BasicFrequencyAwareAdamW<T>::BasicFrequencyAwareAdamW(const BasicFrequencyAwareAdamW& o)
    : opt_(o.opt_), cfg_(o.cfg_), tau_(o.tau_), tau_level_(o.tau_level_) {
  BasicAdamWState<T> s = o.state();
  m_ = std::move(s.m), v_ = std::move(s.v);
}

template <typename T>
BasicFrequencyAwareAdamW<T>& BasicFrequencyAwareAdamW<T>::operator=(const BasicFrequencyAwareAdamW& o) {
  if (this != &o) *this = BasicFrequencyAwareAdamW(o);
  return *this;
}

template <typename T>
BasicAdamWState<T> BasicFrequencyAwareAdamW<T>::state() const {
  if constexpr (std::is_same_v<T, float>) {
    if (resident_ != nullptr) {
      std::vector<float> m(flat_count(cfg_, m_)), v(m.size());
      resident_->download(m, v);
      return {MagParams<T>::from_flat(cfg_, m), MagParams<T>::from_flat(cfg_, v), tau_, tau_level_};
    }
  }
  return {m_, v_, tau_, tau_level_};
}

template <typename T>
BasicAdamWState<T> BasicFrequencyAwareAdamW<T>::take_state() && {
  bring_down();
  return {std::move(m_), std::move(v_), tau_, std::move(tau_level_)};
}

template <typename T>
void BasicFrequencyAwareAdamW<T>::bring_down() {
  if (resident_ == nullptr) return;
  BasicAdamWState<T> s = state();
  m_ = std::move(s.m), v_ = std::move(s.v);
  resident_.reset(), resident_on_ = nullptr;
}

template <typename T>
ResidentAdamW* BasicFrequencyAwareAdamW<T>::resident() {
  if constexpr (!std::is_same_v<T, float>) {
    return nullptr;
  } else {
    const OptimizerKernel* k = installed_optimizer_kernel();
    if (k != resident_on_) bring_down();
    if (k != nullptr && resident_ == nullptr) {
      resident_ = k->adopt(m_.to_flat(), v_.to_flat());
      resident_on_ = k;
    }
    return resident_.get();
  }
}

template <typename T>
void BasicFrequencyAwareAdamW<T>::step_on(ResidentAdamW& r, MagParams<T>& p, const Pulse& pulse, double lr,
                                          std::optional<float> scale) {
  if constexpr (std::is_same_v<T, float>) {
    // Flat order: E ... U_emb, each level, W_freq, b_freq; the attention group at both ends.
    ++tau_;
    const AdamWCoefficients attention = adamw_coefficients(opt_, tau_, lr);
    std::size_t head = 0;
    for (const std::vector<T>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb}) head += t->size();
    const std::size_t level_size = LevelParams<T>::flat_size(cfg_.d, has_omega(cfg_.rule));
    const std::size_t tail = head + p.levels.size() * level_size;
    std::vector<AdamWRange> ranges{{0, head, attention}, {tail, tail + p.w_freq.size() + p.b_freq.size(), attention}};
    for (std::size_t l = 0; l < p.levels.size(); ++l) {
      if (!pulse.is_active(l)) continue;  // frozen: no moments, no count, no change
      ++tau_level_[l];
      ranges.push_back({head + l * level_size, head + (l + 1) * level_size, adamw_coefficients(opt_, tau_level_[l], lr)});
    }
    std::vector<float> theta = p.to_flat();
    r.update(theta, ranges, scale);
    p = MagParams<T>::from_flat(cfg_, theta);
  }
}

template <typename T>
double BasicFrequencyAwareAdamW<T>::clip_and_step(MagParams<T>& p, MagParams<T>& g, const Pulse& pulse, double lr,
                                                  common::WorkerPool* pool) {
  if constexpr (std::is_same_v<T, float>) {
    if (ResidentAdamW* r = resident()) {
      r->load_gradient(g.to_flat());
      const double norm = std::sqrt(r->sum_of_squares());  // as clip_global_norm's std::sqrt(sq)
      step_on(*r, p, pulse, lr, norm > opt_.clip ? std::optional<float>(clip_scale<float>(opt_.clip, norm)) : std::nullopt);
      return norm;
    }
  }
  const double norm = clip_global_norm(g, opt_.clip);
  step(p, g, pulse, lr, pool);
  return norm;
}

template <typename T>
void BasicFrequencyAwareAdamW<T>::step(MagParams<T>& p, const MagParams<T>& g, const Pulse& pulse, double lr,
                                       common::WorkerPool* pool) {
  if constexpr (std::is_same_v<T, float>) {
    if (ResidentAdamW* r = resident()) {
      r->load_gradient(g.to_flat());
      step_on(*r, p, pulse, lr, std::nullopt);
      return;
    }
  }
  ++tau_;
  const AdamWCoefficients attention = adamw_coefficients(opt_, tau_, lr);
  std::vector<TensorUpdate<T>> updates;
  add_tensor(updates, p.e, g.e, m_.e, v_.e, attention);
  add_tensor(updates, p.w_q, g.w_q, m_.w_q, v_.w_q, attention);
  add_tensor(updates, p.w_k, g.w_k, m_.w_k, v_.w_k, attention);
  add_tensor(updates, p.w_v, g.w_v, m_.w_v, v_.w_v, attention);
  add_tensor(updates, p.w_o, g.w_o, m_.w_o, v_.w_o, attention);
  add_tensor(updates, p.u_emb, g.u_emb, m_.u_emb, v_.u_emb, attention);
  // The frequency gate (learned schedule; empty otherwise) sees every chunk: attention group.
  add_tensor(updates, p.w_freq, g.w_freq, m_.w_freq, v_.w_freq, attention);
  add_tensor(updates, p.b_freq, g.b_freq, m_.b_freq, v_.b_freq, attention);
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    if (!pulse.is_active(l)) continue;  // frozen: no moments, no count, no change
    ++tau_level_[l];
    add_level(updates, p.levels[l], g.levels[l], m_.levels[l], v_.levels[l], adamw_coefficients(opt_, tau_level_[l], lr));
  }
  if (pool == nullptr || pool->threads() == 1) {
    for (const TensorUpdate<T>& u : updates) update_range(u, 0, u.theta.size(), u.k);
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
  pool->run(blocks.size(), [&](std::size_t j) {
    const TensorUpdate<T>& u = updates[blocks[j].update];
    update_range(u, blocks[j].begin, blocks[j].end, u.k);
  });
}

template double clip_global_norm<float>(MagParams<float>&, double);
template double clip_global_norm<double>(MagParams<double>&, double);
template class BasicFrequencyAwareAdamW<float>;
template class BasicFrequencyAwareAdamW<double>;

}  // namespace nl
