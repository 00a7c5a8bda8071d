#include "nl/mag_params.hpp"
#include "nl/tracked32.hpp"

#include <cmath>
#include <cstdint>

namespace nl {
namespace {

// xorshift64 of §2: state = seed (0 -> 1); uniform(a) = (2 f32(x / (2^64 - 1)) - 1) a.
class XorShift64 {
 public:
  explicit XorShift64(std::uint64_t seed) : x_(seed == 0 ? 1 : seed) {}
  float uniform(double a) {
    x_ ^= x_ << 13;
    x_ ^= x_ >> 7;
    x_ ^= x_ << 17;
    const float unit = static_cast<float>(static_cast<double>(x_) / 18446744073709551615.0);
    return (2.0f * unit - 1.0f) * static_cast<float>(a);
  }
  void fill(std::vector<float>& v, std::size_t n, double a) {
    v.resize(n);
    for (float& x : v) x = uniform(a);
  }

 private:
  std::uint64_t x_;
};

bool forget_gate_rule(RuleKind r) {
  return r == RuleKind::delta || r == RuleKind::titans || r == RuleKind::hebbian || r == RuleKind::atlas ||
         r == RuleKind::trellis;
}

}  // namespace

GateBiases default_gate_biases(RuleKind rule, std::size_t level) {
  static constexpr double kAlpha[] = {3.0, 4.0, 4.5, 5.0, 5.5, 6.0};
  static constexpr double kTheta[] = {-4.6, -5.6, -6.6, -7.6, -8.6, -9.6};
  static constexpr double kEta[] = {1.5, 2.0, 2.5, 3.0, 3.5, 4.0};
  const std::size_t l = level < 6 ? level : 0;
  GateBiases b{kAlpha[l], kTheta[l], level < 6 ? kEta[l] : 2.0};
  if (forget_gate_rule(rule)) b.alpha = -b.alpha;  // alpha multiplies as 1 - alpha there (O-3)
  return b;
}

template <typename T>
MagParams<T> MagParams<T>::init(const MagConfig& cfg) {
  const std::size_t d = cfg.d, v = cfg.vocab;
  MagParams<float> p;
  XorShift64 rng(cfg.seed);
  const double a_emb = std::sqrt(1.0 / static_cast<double>(d));
  const double a_attn = std::sqrt(2.0 / (2.0 * static_cast<double>(d)));
  rng.fill(p.e, v * d, a_emb);
  rng.fill(p.w_q, d * d, a_attn);
  rng.fill(p.w_k, d * d, a_attn);
  rng.fill(p.w_v, d * d, a_attn);
  rng.fill(p.w_o, d * d, a_attn);
  rng.fill(p.u_emb, d * v, a_emb);
  const double a_level = std::sqrt(1.0 / (2.0 * static_cast<double>(d)));
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    XorShift64 lr(cfg.seed + 1000 + 500 * l);
    LevelParams<float> lp;
    lr.fill(lp.w_k, d * d, a_level);
    lr.fill(lp.w_v, d * d, a_level);
    lr.fill(lp.w_q, d * d, a_level);
    lr.fill(lp.w_alpha, 2 * d, a_level);
    lr.fill(lp.w_theta, 2 * d, a_level);
    lr.fill(lp.w_eta, 2 * d, a_level);
    if (has_omega(cfg.rule)) lr.fill(lp.w_omega, 2 * d * d, a_level);
    const GateBiases b = default_gate_biases(cfg.rule, l);
    lp.b_alpha = static_cast<float>(b.alpha);
    lp.b_theta = static_cast<float>(b.theta);
    lp.b_eta = static_cast<float>(b.eta);
    p.levels.push_back(std::move(lp));
  }
  if (const std::size_t g = cfg.gated_levels(); g > 0) {
    XorShift64 fr(cfg.seed + 1000 + 500 * cfg.levels());  // the stream after the last level's
    fr.fill(p.w_freq, g * d, a_emb);
    p.b_freq.assign(g, 0.0f);  // logits start at x-bar . w: levels on or off by the data, not all on
  }
  return p.template cast<T>();
}

template <typename T>
MagParams<T> MagParams<T>::zeros(const MagConfig& cfg) {
  MagParams p;
  const std::size_t d = cfg.d, v = cfg.vocab;
  p.e.assign(v * d, T(0));
  p.w_q.assign(d * d, T(0));
  p.w_k.assign(d * d, T(0));
  p.w_v.assign(d * d, T(0));
  p.w_o.assign(d * d, T(0));
  p.u_emb.assign(d * v, T(0));
  p.levels.assign(cfg.levels(), LevelParams<T>::zeros(d, has_omega(cfg.rule)));
  p.w_freq.assign(cfg.gated_levels() * d, T(0));
  p.b_freq.assign(cfg.gated_levels(), T(0));
  return p;
}

template <typename T>
bool MagParams<T>::fits(const MagConfig& cfg) const {
  const std::size_t d = cfg.d, v = cfg.vocab, gated = cfg.gated_levels();
  if (e.size() != v * d || u_emb.size() != d * v || w_freq.size() != gated * d || b_freq.size() != gated) return false;
  for (const std::vector<T>* t : {&w_q, &w_k, &w_v, &w_o}) {
    if (t->size() != d * d) return false;
  }
  if (levels.size() != cfg.levels()) return false;
  for (const LevelParams<T>& l : levels) {
    if (!l.fits(d, has_omega(cfg.rule))) return false;
  }
  return true;
}

template <typename T>
std::vector<T> MagParams<T>::to_flat() const {
  std::vector<T> out;
  for (const std::vector<T>* t : {&e, &w_q, &w_k, &w_v, &w_o, &u_emb}) out.insert(out.end(), t->begin(), t->end());
  for (const LevelParams<T>& l : levels) {
    const std::vector<T> f = l.to_flat();
    out.insert(out.end(), f.begin(), f.end());
  }
  out.insert(out.end(), w_freq.begin(), w_freq.end());
  out.insert(out.end(), b_freq.begin(), b_freq.end());
  return out;
}

template <typename T>
MagParams<T> MagParams<T>::from_flat(const MagConfig& cfg, std::span<const T> flat) {
  MagParams p = zeros(cfg);
  std::size_t off = 0;
  for (std::vector<T>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb}) {
    std::copy(flat.begin() + static_cast<std::ptrdiff_t>(off), flat.begin() + static_cast<std::ptrdiff_t>(off + t->size()),
              t->begin());
    off += t->size();
  }
  const std::size_t n = LevelParams<T>::flat_size(cfg.d, has_omega(cfg.rule));
  for (LevelParams<T>& l : p.levels) {
    l = LevelParams<T>::from_flat(flat.subspan(off, n), cfg.d, has_omega(cfg.rule)).value();
    off += n;
  }
  for (std::vector<T>* t : {&p.w_freq, &p.b_freq}) {
    std::copy(flat.begin() + static_cast<std::ptrdiff_t>(off), flat.begin() + static_cast<std::ptrdiff_t>(off + t->size()),
              t->begin());
    off += t->size();
  }
  return p;
}

template <typename T>
template <typename U>
MagParams<U> MagParams<T>::cast() const {
  auto conv = [](const std::vector<T>& v) { return std::vector<U>(v.begin(), v.end()); };
  MagParams<U> p{conv(e), conv(w_q), conv(w_k), conv(w_v), conv(w_o), conv(u_emb), {}, conv(w_freq), conv(b_freq)};
  for (const LevelParams<T>& l : levels) {
    p.levels.push_back({conv(l.w_k), conv(l.w_v), conv(l.w_q), conv(l.w_alpha), conv(l.w_theta), conv(l.w_eta),
                        static_cast<U>(l.b_alpha), static_cast<U>(l.b_theta), static_cast<U>(l.b_eta),
                        conv(l.w_omega)});
  }
  return p;
}

template struct MagParams<float>;
template struct MagParams<double>;
template struct MagParams<Tracked32>;
template struct MagParams<Tracked64>;
template MagParams<double> MagParams<float>::cast<double>() const;
template MagParams<float> MagParams<double>::cast<float>() const;
template MagParams<float> MagParams<float>::cast<float>() const;
template MagParams<double> MagParams<double>::cast<double>() const;
template MagParams<Tracked32> MagParams<float>::cast<Tracked32>() const;
template MagParams<Tracked64> MagParams<double>::cast<Tracked64>() const;

}  // namespace nl
