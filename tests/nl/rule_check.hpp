#pragma once
// Gradient checks shared by the memory-rule tests.
//
//  * fd_check_*: the hand-written backward in fp64 against central finite differences of
//    L = <W, y> (W a fixed random weighting of the outputs), every entry of every input that
//    receives a gradient, eps = 1e-6. Inputs are the "stress" kind of nltrain-math §11: gate
//    biases 0, weights O(1), random initial memory, so memory-level gradients are large.
//  * tape_check_*: the fp32 path recorded as an opaque block on the tape, seeded with W, against
//    the same rule's step_backward called directly in fp32: they must agree bit for bit (the
//    block's VJP is the hand-written backward and nothing else), and the traced forward must be
//    bitwise the untraced one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "nl/initial_state.hpp"
#include "nl/level_params.hpp"
#include "nl/memory_rule.hpp"
#include "nl/record_block.hpp"
#include "nl/register_opaque_vjps.hpp"
#include "nl/rule_config.hpp"
#include "nl/unit_norm.hpp"
#include "tape/tape.hpp"

namespace nltest {

// Step of the five-point central stencil in fd_compare (error O(eps^4) + roundoff ~1e-16/eps).
// The protocol is two-point at eps = 1e-6 with rel <= 1e-4; that stencil's roundoff
// (Trellis at s = 16 amplifies it) reaches ~1.4e-6 relative, while five points at 1e-4 measure
// <= 1e-7 on every rule, so the check below (1e-6) is 100x tighter than the and stable.
inline constexpr double kFdEps = 1e-4;
// Pass criterion per entry: |a - fd| <= kRtol * max(|a|, |fd|) + kAtol; a dropped or
// mis-signed term shows up as 1e-5 and more.
inline constexpr double kRtol = 1e-6;
inline constexpr double kAtol = 1e-8;
// For the report: entries at least this large count as "significant" for the relative error.
inline constexpr double kSignificant = 1e-4;

struct FdReport {
  double worst_rel = 0;  // over significant entries
  double worst_abs = 0;  // over the others
  std::size_t checked = 0, significant = 0, failed = 0;
  std::string where;     // the first failing entry, else the worst relative one
};

inline std::vector<double> uniform(std::size_t n, double a, std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-a, a);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

template <typename T>
std::vector<T> cast(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

// Folds one analytic/numeric pair into the report.
inline void record_entry(FdReport& r, const std::string& name, std::size_t i, double a, double fd) {
  ++r.checked;
  const double den = std::max(std::fabs(a), std::fabs(fd));
  const double diff = std::fabs(a - fd);
  const std::string here = name + "[" + std::to_string(i) + "] analytic " + std::to_string(a) + " fd " + std::to_string(fd);
  if (!(diff <= kRtol * den + kAtol)) {
    if (r.failed++ == 0) r.where = here;
  }
  if (den >= kSignificant) {
    ++r.significant;
    if (diff / den > r.worst_rel) {
      r.worst_rel = diff / den;
      if (r.failed == 0) r.where = here;
    }
  } else {
    r.worst_abs = std::max(r.worst_abs, diff);
  }
}

// Checks d<W, f(x)>/dx against `analytic` by central differences, entry by entry.
inline void fd_compare(FdReport& r, const std::string& name, std::vector<double> x,
                       const std::function<double(const std::vector<double>&)>& loss,
                       const std::vector<double>& analytic) {
  REQUIRE(analytic.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    auto at = [&](double h) {
      x[i] = keep + h;
      return loss(x);
    };
    const double fd = (8 * (at(kFdEps) - at(-kFdEps)) - (at(2 * kFdEps) - at(-2 * kFdEps))) / (12 * kFdEps);
    x[i] = keep;
    record_entry(r, name, i, analytic[i], fd);
  }
}

inline double weighted_sum(const std::vector<double>& y, const std::vector<double>& w) {
  double acc = 0;
  for (std::size_t i = 0; i < y.size(); ++i) acc += y[i] * w[i];
  return acc;
}

inline void require_pass(const FdReport& r, const std::string& what) {
  MESSAGE(what << ": " << r.checked << " entries (" << r.significant << " >= 1e-4), max rel err " << r.worst_rel
               << ", max abs err of the smaller ones " << r.worst_abs << ", failing " << r.failed);
  INFO(what << " worst at " << r.where);
  CHECK(r.significant > 0);
  CHECK(r.failed == 0);
}

// A random context memory of the right kind: unit rows for Lattice, row-stochastic for MEMORA.
inline std::vector<double> random_state(nl::RuleKind kind, const nl::RuleConfig& cfg, std::mt19937& rng) {
  std::vector<double> s = uniform(nl::state_size(kind, cfg), 0.5, rng);
  if (kind == nl::RuleKind::lattice) {
    for (std::size_t i = 0; i < cfg.m; ++i) (void)nl::unit_norm_forward(&s[i * cfg.d], cfg.d, &s[i * cfg.d]);
  }
  if (kind == nl::RuleKind::memora) {
    auto rows = [&](std::size_t offset, std::size_t n_rows, std::size_t len) {
      for (std::size_t r = 0; r < n_rows; ++r) {
        double* row = &s[offset + r * len];
        double sum = 0;
        for (std::size_t c = 0; c < len; ++c) sum += (row[c] = std::exp(2 * row[c]));
        for (std::size_t c = 0; c < len; ++c) row[c] /= sum;
      }
    };
    rows(0, cfg.d_h, cfg.d);
    rows(cfg.d_h * cfg.d, cfg.d, cfg.d_h);
  }
  return s;
}

// Stress inputs for one level: X, flat params (biases 0), initial memory, output weighting.
struct RuleInputs {
  std::size_t s;
  std::vector<double> x, params, state, w;
};

inline RuleInputs stress_inputs(nl::RuleKind kind, const nl::RuleConfig& cfg, std::size_t s, unsigned seed) {
  std::mt19937 rng(seed);
  RuleInputs in;
  in.s = s;
  in.x = uniform(s * cfg.d, 1.0, rng);
  const std::size_t d = cfg.d;
  in.params = uniform(nl::LevelParams<double>::flat_size(d, nl::has_omega(kind)), 0.6, rng);
  for (std::size_t i = 3 * d * d + 6 * d; i < 3 * d * d + 6 * d + 3; ++i) in.params[i] = 0.0;  // gate biases
  in.state = random_state(kind, cfg, rng);
  in.w = uniform(s * d, 1.0, rng);
  return in;
}

template <typename T>
nl::LevelParams<T> params_of(const std::vector<double>& flat, std::size_t d, bool omega) {
  const std::vector<T> f = cast<T>(flat);
  return nl::LevelParams<T>::from_flat(f, d, omega).value();
}

// The active rule's fp64 backward vs finite differences, over X and every level parameter.
template <template <typename> class R>
FdReport fd_check_active(const nl::RuleConfig& cfg, const RuleInputs& in) {
  using D = R<double>;
  const nl::RuleKind kind = D::kKind;
  const bool omega = nl::has_omega(kind);
  const auto p = params_of<double>(in.params, cfg.d, omega);
  auto fwd = D::forward(cfg, in.s, in.x, p, in.state);
  const nl::ChunkGrads<double> g = D::step_backward(cfg, in.s, in.x, p, fwd.cache, in.w);
  FdReport r;
  fd_compare(r, "x", in.x, [&](const std::vector<double>& x) {
    return weighted_sum(D::forward(cfg, in.s, x, p, in.state).y, in.w);
  }, g.x);
  fd_compare(r, "params", in.params, [&](const std::vector<double>& flat) {
    return weighted_sum(D::forward(cfg, in.s, in.x, params_of<double>(flat, cfg.d, omega), in.state).y, in.w);
  }, g.params.to_flat());
  return r;
}

// The frozen read's fp64 backward vs finite differences over Q~.
template <template <typename> class R>
FdReport fd_check_frozen(const nl::RuleConfig& cfg, const RuleInputs& in) {
  using D = R<double>;
  const std::vector<double>& q_raw = in.x;  // any s x d values serve as Q~
  auto fwd = D::frozen_forward(cfg, in.s, q_raw, in.state);
  const std::vector<double> g = D::frozen_backward(cfg, in.s, in.state, fwd.cache, in.w);
  FdReport r;
  fd_compare(r, "q", q_raw, [&](const std::vector<double>& q) {
    return weighted_sum(D::frozen_forward(cfg, in.s, q, in.state).y, in.w);
  }, g);
  return r;
}

inline const tape::opaque::OpaqueRegistry& registry() {
  static const tape::opaque::OpaqueRegistry reg = [] {
    tape::opaque::OpaqueRegistry r;
    REQUIRE(nl::register_opaque_vjps(r).ok());
    return r;
  }();
  return reg;
}

// The tape path (one opaque block) against the direct fp32 calls: bitwise.
template <template <typename> class R>
void tape_check_active(const nl::RuleConfig& cfg, const RuleInputs& in) {
  using F = R<float>;
  const nl::RuleKind kind = F::kKind;
  const bool omega = nl::has_omega(kind);
  const std::vector<float> x = cast<float>(in.x), flat = cast<float>(in.params), state = cast<float>(in.state),
                           w = cast<float>(in.w);
  const auto p = nl::LevelParams<float>::from_flat(flat, cfg.d, omega).value();
  auto direct = F::forward(cfg, in.s, x, p, state);
  const nl::ChunkGrads<float> want = F::step_backward(cfg, in.s, x, p, direct.cache, w);
  const std::vector<float> want_params = want.params.to_flat();

  const nl::RecordedChunk untraced =
      nl::record_active(registry(), kind, cfg, tape::Tensor::from(x, {in.s, cfg.d}), tape::Tensor::from(flat, {flat.size()}), state);
  CHECK(untraced.y.to_vector() == direct.y);

  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tx = t.register_input(x, {in.s, cfg.d});
    const tape::Tensor tp = t.register_param(flat, {flat.size()});
    const nl::RecordedChunk rec = nl::record_active(registry(), kind, cfg, tx, tp, state);
    CHECK(t.ops().size() == 1);
    CHECK(rec.y.to_vector() == direct.y);
    CHECK(rec.final_state == direct.final_state);
    t.backward(rec.y.id(), w);
    CHECK(t.get_grad(tx.id()) == want.x);
    CHECK(t.get_grad(tp.id()) == want_params);
  });
}

template <template <typename> class R>
void tape_check_frozen(const nl::RuleConfig& cfg, const RuleInputs& in) {
  using F = R<float>;
  const std::vector<float> q = cast<float>(in.x), state = cast<float>(in.state), w = cast<float>(in.w);
  auto direct = F::frozen_forward(cfg, in.s, q, state);
  const std::vector<float> want = F::frozen_backward(cfg, in.s, state, direct.cache, w);
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tq = t.register_input(q, {in.s, cfg.d});
    const tape::Tensor y = nl::record_frozen(registry(), F::kKind, cfg, tq, state);
    CHECK(y.to_vector() == direct.y);
    t.backward(y.id(), w);
    CHECK(t.get_grad(tq.id()) == want);
  });
}

// The whole battery for one rule.
template <template <typename> class R>
void check_rule(const nl::RuleConfig& cfg, std::size_t s, unsigned seed) {
  const nl::RuleKind kind = R<double>::kKind;
  const RuleInputs in = stress_inputs(kind, cfg, s, seed);
  const std::string name(nl::to_string(kind));
  require_pass(fd_check_active<R>(cfg, in), name + " active, fp64 backward vs FD");
  require_pass(fd_check_frozen<R>(cfg, in), name + " frozen, fp64 backward vs FD");
  tape_check_active<R>(cfg, in);
  tape_check_frozen<R>(cfg, in);
}

// A small configuration with every size distinct, so a transposed index cannot pass by symmetry.
inline nl::RuleConfig small_config() {
  nl::RuleConfig cfg;
  cfg.d = 5;
  cfg.d_h = 3;
  cfg.m = 4;
  cfg.d_c = 3;
  cfg.lambda_k = cfg.lambda_v = 0.05;
  cfg.lambda_2 = 0.03;
  cfg.lambda_loc = 0.07;
  cfg.huber_delta = 0.5;
  return cfg;
}

}  // namespace nltest
