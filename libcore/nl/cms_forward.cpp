#include "nl/cms_forward.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "nl/level_fields.hpp"
#include "nl/rule_dispatch.hpp"
#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/embed.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/finite.hpp"

namespace nl {
namespace {

// Runs on every parameter every step: the bit-pattern test that vectorizes (tape/finite.hpp),
// not an early-exit std::isfinite loop.
template <typename T>
bool finite(const std::vector<T>& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return tape::all_finite(std::span<const T>(v));
  } else {
    return std::ranges::all_of(v, [](const T& x) { return isfinite(x); });
  }
}

}  // namespace

template <typename T>
common::Status check_chunk_inputs(const MagConfig& cfg, const MagParams<T>& params, std::span<const std::size_t> ids,
                                  std::span<const std::size_t> targets, const Pulse& pulse,
                                  const ContextMemory<T>& context) {
  if (const common::Status s = validate(cfg); !s.ok()) return s;
  auto bad = [](const std::string& field, const std::string& what) {
    return common::Error::invalid_argument("chunk: " + field + ": " + what);
  };
  if (ids.size() != cfg.seq_len) return bad("ids", "holds " + std::to_string(ids.size()) + " tokens; expected seq_len=" + std::to_string(cfg.seq_len));
  if (targets.size() != cfg.seq_len) return bad("targets", "holds " + std::to_string(targets.size()) + " tokens; expected seq_len=" + std::to_string(cfg.seq_len));
  for (std::size_t t = 0; t < ids.size(); ++t) {
    if (ids[t] >= cfg.vocab) return bad("ids/" + std::to_string(t), "token " + std::to_string(ids[t]) + " >= vocab=" + std::to_string(cfg.vocab));
  }
  if (pulse.active.size() != cfg.levels()) return bad("pulse", "has " + std::to_string(pulse.active.size()) + " levels; expected k=" + std::to_string(cfg.levels()));
  if (context.levels.size() != cfg.levels()) return bad("context", "has " + std::to_string(context.levels.size()) + " levels; expected k=" + std::to_string(cfg.levels()));
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    if (context.levels[l].size() != state_size(cfg.rule, cfg.rule_cfg)) return bad("context/" + std::to_string(l), "wrong size");
    if (!finite(context.levels[l])) return bad("context/" + std::to_string(l), "contains NaN or Inf");
  }
  // Sizes and finiteness straight from the tensors (this runs every step: no copies).
  const std::size_t d = cfg.d, V = cfg.vocab, g = cfg.gated_levels();
  const char* names[] = {"E", "W_Q", "W_K", "W_V", "W_O", "U_emb", "W_freq", "b_freq"};
  const std::vector<T>* have[] = {&params.e, &params.w_q, &params.w_k, &params.w_v, &params.w_o, &params.u_emb, &params.w_freq, &params.b_freq};
  const std::size_t want[] = {V * d, d * d, d * d, d * d, d * d, d * V, g * d, g};
  for (std::size_t i = 0; i < 8; ++i) {
    if (have[i]->size() != want[i]) return bad(std::string("params/") + names[i], "holds " + std::to_string(have[i]->size()) + " values; expected " + std::to_string(want[i]));
    if (!finite(*have[i])) return bad(std::string("params/") + names[i], "contains NaN or Inf");
  }
  if (params.levels.size() != cfg.levels()) return bad("params/levels", "has " + std::to_string(params.levels.size()) + " levels; expected k=" + std::to_string(cfg.levels()));
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    const LevelParams<T>& lp = params.levels[l];
    const std::vector<T>* fields[] = {&lp.w_k, &lp.w_v, &lp.w_q, &lp.w_alpha, &lp.w_theta, &lp.w_eta, &lp.w_omega};
    const std::size_t sizes[] = {d * d, d * d, d * d, 2 * d, 2 * d, 2 * d, has_omega(cfg.rule) ? 2 * d * d : 0};
    bool shaped = true, ok = isfinite(lp.b_alpha) && isfinite(lp.b_theta) && isfinite(lp.b_eta);
    for (std::size_t i = 0; i < 7; ++i) {
      shaped = shaped && fields[i]->size() == sizes[i];
      ok = ok && finite(*fields[i]);
    }
    if (!shaped) return bad("params/levels/" + std::to_string(l), "has the wrong shape for d=" + std::to_string(cfg.d));
    if (!ok) return bad("params/levels/" + std::to_string(l), "contains NaN or Inf");
  }
  return {};
}

namespace {

// mask: null, or (learned schedule) the gate's K-1 mask values to use instead of its own.
template <typename T>
common::Result<MagForward<T>> forward_impl(const MagConfig& cfg, const MagParams<T>& p, std::span<const std::size_t> ids,
                                           std::span<const std::size_t> targets, const Pulse& pulse,
                                           const ContextMemory<T>& context, const std::span<const T>* mask) {
  if (const common::Status s = check_chunk_inputs(cfg, p, ids, targets, pulse, context); !s.ok()) return s.error();
  using namespace tape::ops;
  const std::size_t s = cfg.seq_len, d = cfg.d, V = cfg.vocab, K = cfg.levels();
  MagForward<T> f;
  f.ids.assign(ids.begin(), ids.end());
  f.targets.assign(targets.begin(), targets.end());
  for (std::size_t t : targets) f.n_valid += t < V ? 1 : 0;
  f.x.resize(s * d), f.q.resize(s * d), f.k.resize(s * d), f.v.resize(s * d);
  embed_lookup_forward<T>(p.e, ids, d, f.x);
  if (cfg.learned_schedule()) {
    f.freq = frequency_gate_forward<T>(s, d, f.x, p.w_freq, p.b_freq);
    if (mask != nullptr) f.freq.mask.assign(mask->begin(), mask->end());
    f.pulse = gate_pulse(f.freq);
  } else {
    f.pulse = pulse;
  }
  matmul_forward<T>(f.x, p.w_q, f.q, s, d, d, true);
  matmul_forward<T>(f.x, p.w_k, f.k, s, d, d, true);
  matmul_forward<T>(f.x, p.w_v, f.v, s, d, d, true);
  f.swa = swa_forward<T>(cfg.swa_shape(), f.q, f.k, f.v);
  f.context_after = context;
  std::vector<T> ysum;
  for (std::size_t l = 0; l < K; ++l) {
    LevelForward<T>& lf = f.levels.emplace_back();
    lf.active = f.pulse.is_active(l);
    lf.gated = cfg.learned_schedule() && l > 0;
    visit_rule(cfg.rule, [&]<template <typename> class R>() {
      const bool run_active = lf.gated || lf.active, run_frozen = lf.gated || !lf.active;
      if (run_active) {
        auto r = R<T>::forward(cfg.rule_cfg, s, f.x, p.levels[l], context.levels[l]);
        (lf.gated ? lf.y_active : lf.y) = std::move(r.y);
        lf.fields = to_fields<T>(r.cache);
        if (lf.active) f.context_after.levels[l] = std::move(r.final_state);
      }
      if (run_frozen) {
        std::vector<T> q_raw(s * d);
        matmul_forward<T>(f.x, p.levels[l].w_q, q_raw, s, d, d, true);
        auto r = R<T>::frozen_forward(cfg.rule_cfg, s, q_raw, context.levels[l]);
        (lf.gated ? lf.y_frozen : lf.y) = std::move(r.y);
        (lf.gated ? lf.frozen_fields : lf.fields) = to_fields<T>(r.cache);
        if (lf.gated) lf.frozen_state = context.levels[l];
      }
    });
    if (lf.gated) {
      lf.mask = f.freq.mask[l - 1];
      lf.y = mix_level<T>(lf.y_active, lf.y_frozen, lf.mask);
    }
    if (l == 0) {
      ysum = lf.y;
    } else {
      std::vector<T> next(s * d);
      add_forward<T>(ysum, lf.y, next);
      ysum.swap(next);
    }
  }
  if (K > 2) {
    std::vector<T> scaled(s * d);
    scale_forward<T>(ysum, level_scale<T>(K), scaled);
    ysum.swap(scaled);
  }
  f.gate.resize(s * d), f.z.resize(s * d), f.pj.resize(s * d), f.logits.resize(s * V), f.probs.resize(s * V);
  sigmoid_forward<T>(ysum, f.gate);
  mul_forward<T>(f.swa.a, f.gate, f.z);
  matmul_forward<T>(f.z, p.w_o, f.pj, s, d, d, true);
  matmul_forward<T>(f.pj, p.u_emb, f.logits, s, d, V, false);
  f.loss = cross_entropy_forward<T>(f.logits, targets, V, f.probs);
  if (!isfinite(f.loss)) return common::Error::invalid_argument("chunk: loss: is not finite (NaN or Inf)");
  return f;
}

}  // namespace

template <typename T>
common::Result<MagForward<T>> cms_forward(const MagConfig& cfg, const MagParams<T>& p, std::span<const std::size_t> ids,
                                          std::span<const std::size_t> targets, const Pulse& pulse,
                                          const ContextMemory<T>& context) {
  return forward_impl<T>(cfg, p, ids, targets, pulse, context, nullptr);
}

template <typename T>
common::Result<MagForward<T>> cms_forward_with_mask(const MagConfig& cfg, const MagParams<T>& p,
                                                    std::span<const std::size_t> ids,
                                                    std::span<const std::size_t> targets, std::span<const T> mask,
                                                    const ContextMemory<T>& context) {
  if (!cfg.learned_schedule() || mask.size() != cfg.gated_levels()) {
    return common::Error::invalid_argument("chunk: mask: needs a learned schedule and k-1=" +
                                           std::to_string(cfg.gated_levels()) + " values, got " +
                                           std::to_string(mask.size()));
  }
  const Pulse all{std::vector<bool>(cfg.levels(), true)};
  return forward_impl<T>(cfg, p, ids, targets, all, context, &mask);
}

#define NL_CMS_FORWARD(T)                                                                                           \
  template common::Status check_chunk_inputs<T>(const MagConfig&, const MagParams<T>&, std::span<const std::size_t>, \
                                                std::span<const std::size_t>, const Pulse&, const ContextMemory<T>&); \
  template common::Result<MagForward<T>> cms_forward<T>(const MagConfig&, const MagParams<T>&,                       \
                                                        std::span<const std::size_t>, std::span<const std::size_t>,  \
                                                        const Pulse&, const ContextMemory<T>&);           \
  template common::Result<MagForward<T>> cms_forward_with_mask<T>(const MagConfig&, const MagParams<T>&,             \
                                                                  std::span<const std::size_t>,                      \
                                                                  std::span<const std::size_t>, std::span<const T>,  \
                                                                  const ContextMemory<T>&);
NL_CMS_FORWARD(float)
NL_CMS_FORWARD(double)
NL_CMS_FORWARD(Tracked32)
NL_CMS_FORWARD(Tracked64)
#undef NL_CMS_FORWARD

}  // namespace nl
