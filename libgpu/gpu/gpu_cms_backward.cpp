#include "gpu/gpu_cms_backward.hpp"

#include <string>

#include "gpu/kernel_pairs.hpp"
#include "gpu/swa_kernels.hpp"
#include "nl/dense.hpp"
#include "nl/level_fields.hpp"
#include "nl/rule_dispatch.hpp"

namespace gpu {
namespace {

// C = op(A) op(B) on the backend (cuBLAS on CUDA): the output head's products, s x d x V, are the
// largest in a step and grow with the vocabulary, where a library GEMM beats a hand kernel.
std::vector<float> matmul(Backend& b, bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k,
                          std::span<const float> a, std::span<const float> bm) {
  Buffer da(b, a), db(b, bm), dc(b, m * n);
  b.gemm({ta, tb, m, n, k, 1.f, 0.f, da.get(), db.get(), dc.get()});
  b.synchronize();
  return dc.to_host();
}

}  // namespace

common::Result<nl::MagGradients<float>> gpu_cms_backward(Backend& backend, const nl::MagConfig& cfg,
                                                        const nl::MagParams<float>& p, const nl::MagForward<float>& f,
                                                        const nl::ContextMemory<float>& context) {
  namespace dense = nl::dense;
  const std::unique_ptr<nl::KernelPair> pair = make_kernel_pair(cfg.rule, backend);
  if (!pair) {
    return common::Error::invalid_argument("gpu_cms_backward: rule " + std::string(nl::to_string(cfg.rule)) +
                                           " has no kernel pair");
  }
  const std::size_t s = cfg.seq_len, d = cfg.d, V = cfg.vocab, K = cfg.levels();
  nl::MagGradients<float> g{nl::MagParams<float>::zeros(cfg),
                            std::vector<nl::LevelParams<float>>(K, nl::LevelParams<float>::zeros(d, nl::has_omega(cfg.rule)))};
  nl::MagParams<float>& gp = g.params;
  // Cross-entropy (mean over valid targets) -> logits -> Pj -> Z.
  std::vector<float> g_logits(s * V, 0.f);
  if (f.n_valid > 0) {
    const float inv_n = 1.f / static_cast<float>(f.n_valid);
    for (std::size_t t = 0; t < s; ++t) {
      if (f.targets[t] >= V) continue;
      for (std::size_t j = 0; j < V; ++j) g_logits[t * V + j] = f.probs[t * V + j] * inv_n;
      g_logits[t * V + f.targets[t]] -= inv_n;
    }
  }
  std::vector<float> g_pj, g_z;
  try {
    gp.u_emb = matmul(backend, true, false, d, V, s, f.pj, g_logits);  // logits = Pj U_emb: gU_emb = Pj^T gL
    g_pj = matmul(backend, false, true, s, d, V, g_logits, p.u_emb);     // gPj = gL U_emb^T
    gp.w_o = matmul(backend, true, false, d, d, s, g_pj, f.z);           // Pj = Z W_O^T: gW_O = gPj^T Z
    g_z = matmul(backend, false, false, s, d, d, g_pj, p.w_o);           // gZ = gPj W_O
  } catch (const GpuError& e) {
    return common::Error::io(std::string("gpu_cms_backward: ") + e.what());
  }
  std::vector<float> g_a(s * d), g_y(s * d);
  const float c_k = nl::level_scale<float>(K);
  for (std::size_t i = 0; i < s * d; ++i) {
    const float gate = f.gate[i];
    g_a[i] = g_z[i] * gate;
    g_y[i] = c_k * (g_z[i] * f.swa.a[i] * gate * (1.f - gate));
  }
  std::vector<float> g_x(s * d, 0.f);
  try {
    for (std::size_t l = 0; l < K; ++l) {
      const nl::LevelForward<float>& lf = f.levels[l];
      if (lf.active) {
        const nl::KernelChunk chunk = pair->forward(cfg.rule_cfg, s, f.x, p.levels[l], context.levels[l]);
        nl::ChunkGrads<float> r =
            pair->backward(cfg.rule_cfg, s, f.x, p.levels[l], chunk.cache.layout, chunk.cache.data, g_y);
        dense::axpy(g_x.data(), 1.f, r.x.data(), s * d);
        gp.levels[l] = std::move(r.params);
        continue;
      }
      nl::visit_rule(cfg.rule, [&]<template <typename> class R>() {
        nl::FrozenCache<float> cache;
        nl::from_fields(lf.fields, cache);
        const std::vector<float> g_q = R<float>::frozen_backward(cfg.rule_cfg, s, context.levels[l], cache, g_y);
        dense::project_backward(f.x.data(), s, d, p.levels[l].w_q.data(), d, g_q.data(), g.error[l].w_q.data(),
                                g_x.data());
      });
    }
    const SwaGrads sg = swa_backward(backend, cfg.swa_shape(), f.q, f.k, f.v, f.swa.p, g_a);
    dense::project_backward(f.x.data(), s, d, p.w_q.data(), d, sg.q.data(), gp.w_q.data(), g_x.data());
    dense::project_backward(f.x.data(), s, d, p.w_k.data(), d, sg.k.data(), gp.w_k.data(), g_x.data());
    dense::project_backward(f.x.data(), s, d, p.w_v.data(), d, sg.v.data(), gp.w_v.data(), g_x.data());
  } catch (const GpuError& e) {
    return common::Error::io(std::string("gpu_cms_backward: ") + e.what());
  }
  for (std::size_t t = 0; t < s; ++t) dense::axpy(&gp.e[f.ids[t] * d], 1.f, &g_x[t * d], d);
  return g;
}

}  // namespace gpu
