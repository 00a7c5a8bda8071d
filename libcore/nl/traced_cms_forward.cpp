#include "nl/traced_cms_forward.hpp"

#include "nl/cms_forward.hpp"
#include "nl/record_block.hpp"
#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/embed.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/reshape.hpp"
#include "tape/ops/softmax.hpp"

namespace nl {

TapeParams register_params(tape::Tape& t, const MagConfig& cfg, const MagParams<float>& p) {
  const std::size_t d = cfg.d, v = cfg.vocab;
  TapeParams tp{t.register_param(p.e, {v, d}),     t.register_param(p.w_q, {d, d}), t.register_param(p.w_k, {d, d}),
                t.register_param(p.w_v, {d, d}),   t.register_param(p.w_o, {d, d}), t.register_param(p.u_emb, {d, v}),
                {}};
  for (const LevelParams<float>& l : p.levels) {
    const std::vector<float> flat = l.to_flat();
    tp.levels.push_back(t.register_param(flat, {flat.size()}));
  }
  return tp;
}

TracedChunk traced_cms_forward(tape::Tape& t, const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                               const TapeParams& p, std::span<const std::size_t> ids,
                               std::span<const std::size_t> targets, const Pulse& pulse,
                               const ContextMemory<float>& context) {
  using namespace tape::ops;
  (void)t;  // the tape is the active one; ops record on it
  const std::size_t d = cfg.d, K = cfg.levels();
  TracedChunk out;
  out.context_after = context;
  const tape::Tensor x = embed_lookup(p.e, ids);
  const tape::Tensor q = matmul_transpose_b(x, p.w_q);
  const tape::Tensor k = matmul_transpose_b(x, p.w_k);
  const tape::Tensor v = matmul_transpose_b(x, p.w_v);
  const tape::Tensor a = record_swa(registry, cfg.swa_shape(), q, k, v);
  tape::Tensor ysum;
  for (std::size_t l = 0; l < K; ++l) {
    tape::Tensor y;
    if (pulse.is_active(l)) {
      RecordedChunk r = record_active(registry, cfg.rule, cfg.rule_cfg, x, p.levels[l], context.levels[l]);
      y = r.y;
      out.context_after.levels[l] = std::move(r.final_state);
    } else {
      const tape::Tensor w_q = slice(p.levels[l], 2 * d * d, tape::Shape{d, d});  // LevelParams flat layout
      y = record_frozen(registry, cfg.rule, cfg.rule_cfg, matmul_transpose_b(x, w_q), context.levels[l]);
    }
    ysum = l == 0 ? y : add(ysum, y);
  }
  if (K > 2) ysum = scale(ysum, level_scale<float>(K));
  const tape::Tensor z = mul(a, sigmoid(ysum));
  const tape::Tensor logits = matmul(matmul_transpose_b(z, p.w_o), p.u_emb);
  out.loss = cross_entropy(logits, targets);
  return out;
}

common::Result<TapeGradients> tape_gradients(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                                             const MagParams<float>& params, std::span<const std::size_t> ids,
                                             std::span<const std::size_t> targets, const Pulse& pulse,
                                             const ContextMemory<float>& context) {
  if (const common::Status s = check_chunk_inputs(cfg, params, ids, targets, pulse, context); !s.ok()) return s.error();
  return tape::try_with_tape([&](tape::Tape& t) {
    const TapeParams tp = register_params(t, cfg, params);
    TracedChunk chunk = traced_cms_forward(t, registry, cfg, tp, ids, targets, pulse, context);
    t.backward(chunk.loss.id());
    TapeGradients out;
    out.loss = chunk.loss.item();
    out.context_after = std::move(chunk.context_after);
    out.grads.params = MagParams<float>::zeros(cfg);
    MagParams<float>& g = out.grads.params;
    g.e = t.get_grad(tp.e.id()), g.w_q = t.get_grad(tp.w_q.id()), g.w_k = t.get_grad(tp.w_k.id());
    g.w_v = t.get_grad(tp.w_v.id()), g.w_o = t.get_grad(tp.w_o.id()), g.u_emb = t.get_grad(tp.u_emb.id());
    out.grads.error.assign(cfg.levels(), LevelParams<float>::zeros(cfg.d, has_omega(cfg.rule)));
    for (std::size_t l = 0; l < cfg.levels(); ++l) {
      const std::vector<float> flat = t.get_grad(tp.levels[l].id());
      auto lp = LevelParams<float>::from_flat(flat, cfg.d, has_omega(cfg.rule));
      (pulse.is_active(l) ? g.levels[l] : out.grads.error[l]) = std::move(*lp);
    }
    return out;
  });
}

}  // namespace nl
