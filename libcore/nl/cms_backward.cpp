#include "nl/cms_backward.hpp"

#include <type_traits>

#include "nl/blas.hpp"
#include "nl/dense.hpp"
#include "nl/level_fields.hpp"
#include "nl/rule_dispatch.hpp"

namespace nl {

namespace {

// Consume: f's level caches are moved into the backward's, not copied (cms_backward_consuming).
template <typename T, bool Consume>
MagGradients<T> backward(const MagConfig& cfg, const MagParams<T>& p,
                         std::conditional_t<Consume, MagForward<T>&, const MagForward<T>&> f) {
  auto load = [](auto& fields, auto& cache) {
    if constexpr (Consume) {
      take_fields(fields, cache);
    } else {
      from_fields(fields, cache);
    }
  };
  const std::size_t s = cfg.seq_len, d = cfg.d, V = cfg.vocab, K = cfg.levels();
  MagGradients<T> g{MagParams<T>::zeros(cfg), std::vector<LevelParams<T>>(K, LevelParams<T>::zeros(d, has_omega(cfg.rule)))};
  MagParams<T>& gp = g.params;
  // Loss -> logits -> Pj -> Z.
  std::vector<T> g_logits(s * V, T(0));
  if (f.n_valid > 0) {
    const T inv_n = T(1) / static_cast<T>(f.n_valid);
    for (std::size_t t = 0; t < s; ++t) {
      if (f.targets[t] >= V) continue;
      for (std::size_t j = 0; j < V; ++j) g_logits[t * V + j] = f.probs[t * V + j] * inv_n;
      g_logits[t * V + f.targets[t]] -= inv_n;
    }
  }
  std::vector<T> g_pj(s * d, T(0)), g_z(s * d, T(0));
  // logits = Pj U_emb (U_emb is d x V): gPj += gLogits U_emb^T, gU_emb += Pj^T gLogits.
  blas::gemm(false, true, s, d, V, g_logits.data(), p.u_emb.data(), T(1), g_pj.data());
  blas::gemm(true, false, d, V, s, f.pj.data(), g_logits.data(), T(1), gp.u_emb.data());
  dense::project_backward(f.z.data(), s, d, p.w_o.data(), d, g_pj.data(), gp.w_o.data(), g_z.data());
  // Z = A * G, G = sigma(Yc), Yc = c_K sum_l Y^l.
  std::vector<T> g_a(s * d), g_y(s * d);
  const T c_k = level_scale<T>(K);
  for (std::size_t i = 0; i < s * d; ++i) {
    const T gate = f.gate[i];
    g_a[i] = g_z[i] * gate;
    g_y[i] = c_k * (g_z[i] * f.swa.a[i] * gate * (T(1) - gate));
  }
  std::vector<T> g_x(s * d, T(0));
  std::vector<T> g_mask(cfg.gated_levels(), T(0));
  // gX collects its contributions in the order the tape's reverse sweep adds them (last recorded
  // first: levels K-1..0, then the V, K, Q projections), so the two paths agree bit for bit.
  for (std::size_t l = K; l-- > 0;) {
    auto& lf = f.levels[l];
    const std::vector<T>& state = f.context_after.levels[l];  // frozen levels leave it unchanged
    visit_rule(cfg.rule, [&]<template <typename> class R>() {
      if (lf.gated) {
        // The tape's reverse sweep: the selection, then the frozen block (recorded after the
        // active one), then the active block. The unselected variant's adjoint is exactly 0, so
        // its contributions are zeros; the selected one's go where a fixed pulse puts them.
        std::vector<T> g_act, g_frz;
        g_mask[l - 1] += mix_level_backward<T>(lf.y_active, lf.y_frozen, lf.mask, g_y, g_act, g_frz);
        FrozenCache<T> fc;
        load(lf.frozen_fields, fc);
        const std::vector<T> g_q = R<T>::frozen_backward(cfg.rule_cfg, s, lf.frozen_state, fc, g_frz);
        std::vector<T> g_wq(d * d, T(0));
        dense::project_backward(f.x.data(), s, d, p.levels[l].w_q.data(), d, g_q.data(), g_wq.data(), g_x.data());
        typename R<T>::Cache cache;
        load(lf.fields, cache);
        ChunkGrads<T> r = R<T>::step_backward(cfg.rule_cfg, s, f.x, p.levels[l], cache, g_act);
        dense::axpy(g_x.data(), T(1), r.x.data(), s * d);
        if (lf.active) {
          gp.levels[l] = std::move(r.params);
        } else {
          g.error[l].w_q = std::move(g_wq);
        }
      } else if (lf.active) {
        typename R<T>::Cache cache;
        load(lf.fields, cache);
        ChunkGrads<T> r = R<T>::step_backward(cfg.rule_cfg, s, f.x, p.levels[l], cache, g_y);
        dense::axpy(g_x.data(), T(1), r.x.data(), s * d);
        gp.levels[l] = std::move(r.params);
      } else {
        FrozenCache<T> cache;
        load(lf.fields, cache);
        const std::vector<T> g_q = R<T>::frozen_backward(cfg.rule_cfg, s, state, cache, g_y);
        dense::project_backward(f.x.data(), s, d, p.levels[l].w_q.data(), d, g_q.data(), g.error[l].w_q.data(),
                                g_x.data());
      }
    });
  }
  // SWA and the attention projections.
  std::vector<T> g_q(s * d, T(0)), g_k(s * d, T(0)), g_v(s * d, T(0));
  swa_backward<T>(cfg.swa_shape(), f.q, f.k, f.v, f.swa.p, g_a, g_q, g_k, g_v);
  dense::project_backward(f.x.data(), s, d, p.w_v.data(), d, g_v.data(), gp.w_v.data(), g_x.data());
  dense::project_backward(f.x.data(), s, d, p.w_k.data(), d, g_k.data(), gp.w_k.data(), g_x.data());
  dense::project_backward(f.x.data(), s, d, p.w_q.data(), d, g_q.data(), gp.w_q.data(), g_x.data());
  // The frequency gate, recorded right after the embedding: its VJPs run last before E's.
  if (cfg.learned_schedule()) frequency_gate_backward<T>(s, d, p.w_freq, f.freq, g_mask, gp.w_freq, gp.b_freq, g_x);
  for (std::size_t t = 0; t < s; ++t) dense::axpy(&gp.e[f.ids[t] * d], T(1), &g_x[t * d], d);
  return g;
}

}  // namespace

template <typename T>
MagGradients<T> cms_backward(const MagConfig& cfg, const MagParams<T>& p, const MagForward<T>& f) {
  return backward<T, false>(cfg, p, f);
}
template <typename T>
MagGradients<T> cms_backward_consuming(const MagConfig& cfg, const MagParams<T>& p, MagForward<T>& f) {
  return backward<T, true>(cfg, p, f);
}

template MagGradients<float> cms_backward_consuming<float>(const MagConfig&, const MagParams<float>&, MagForward<float>&);
template MagGradients<double> cms_backward_consuming<double>(const MagConfig&, const MagParams<double>&, MagForward<double>&);
template MagGradients<float> cms_backward<float>(const MagConfig&, const MagParams<float>&, const MagForward<float>&);
template MagGradients<double> cms_backward<double>(const MagConfig&, const MagParams<double>&,
                                                   const MagForward<double>&);
template MagGradients<Tracked32> cms_backward_consuming<Tracked32>(const MagConfig&, const MagParams<Tracked32>&,
                                                                   MagForward<Tracked32>&);
template MagGradients<Tracked64> cms_backward_consuming<Tracked64>(const MagConfig&, const MagParams<Tracked64>&,
                                                                   MagForward<Tracked64>&);

}  // namespace nl
