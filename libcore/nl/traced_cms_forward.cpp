#include "nl/traced_cms_forward.hpp"

#include "tape/state_pager.hpp"

#include "nl/cms_forward.hpp"
#include "nl/head_loss.hpp"
#include "nl/record_block.hpp"
#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/embed.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/nl_straight_through.hpp"
#include "tape/ops/reshape.hpp"

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
  if (const std::size_t g = cfg.gated_levels(); g > 0) {
    tp.w_freq = t.register_param(p.w_freq, {g, d});
    tp.b_freq = t.register_param(p.b_freq, {1, g});
  }
  return tp;
}

TracedChunk traced_cms_forward(tape::Tape& t, const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                               const TapeParams& p, std::span<const std::size_t> ids,
                               std::span<const std::size_t> targets, const Pulse& pulse,
                               const ContextMemory<float>& context) {
  using namespace tape::ops;
  const std::size_t s = cfg.seq_len, d = cfg.d, K = cfg.levels();
  TracedChunk out;
  out.context_after = context;
  out.pulse = pulse;
  const tape::Tensor x = embed_lookup(p.e, ids);
  // The frequency gate (frequency_gate.hpp), right after the embedding; cms_forward/backward
  // mirror these ops one for one.
  tape::Tensor mask, one;
  if (cfg.learned_schedule()) {
    const std::vector<float> mean_row(s, 1.0f / static_cast<float>(s));
    const tape::Tensor x_bar = matmul(t.register_input(mean_row, {1, s}), x);
    mask = straight_through_bool(add(matmul_transpose_b(x_bar, p.w_freq), p.b_freq), 0.0f);
    out.pulse.active.assign(K, true);
    for (std::size_t l = 1; l < K; ++l) out.pulse.active[l] = mask.data()[l - 1] > 0.5f;
    const float one_value = 1.0f;
    one = t.register_input(std::span<const float>(&one_value, 1), {1, 1});
  }
  const tape::Tensor q = matmul_transpose_b(x, p.w_q);
  const tape::Tensor k = matmul_transpose_b(x, p.w_k);
  const tape::Tensor v = matmul_transpose_b(x, p.w_v);
  const tape::Tensor a = record_swa(registry, cfg.swa_shape(), q, k, v);
  tape::Tensor ysum;
  for (std::size_t l = 0; l < K; ++l) {
    tape::Tensor y;
    if (cfg.learned_schedule() && l > 0) {
      const tape::Tensor m = slice(mask, l - 1, tape::Shape{1, 1});
      RecordedChunk r = record_active(registry, cfg.rule, cfg.rule_cfg, x, p.levels[l], context.levels[l]);
      if (out.pulse.is_active(l)) out.context_after.levels[l] = std::move(r.final_state);
      const tape::Tensor w_q = slice(p.levels[l], 2 * d * d, tape::Shape{d, d});
      const tape::Tensor y_frozen =
          record_frozen(registry, cfg.rule, cfg.rule_cfg, matmul_transpose_b(x, w_q), context.levels[l]);
      // Y = m Y_active + (1 - m) Y_frozen, as [s*d, 1] @ [1, 1] products (no broadcasting op).
      const tape::Tensor a = matmul(slice(r.y, 0, tape::Shape{s * d, 1}), m);
      const tape::Tensor b = matmul(slice(y_frozen, 0, tape::Shape{s * d, 1}), sub(one, m));
      y = add(slice(a, 0, tape::Shape{s, d}), slice(b, 0, tape::Shape{s, d}));
    } else if (out.pulse.is_active(l)) {
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
  out.loss = record_head_loss(registry, z, p.w_o, p.u_emb, targets);
  return out;
}

common::Expected<TapeGradients, tape::TapeFailure> tape_gradients(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                                             const MagParams<float>& params, std::span<const std::size_t> ids,
                                             std::span<const std::size_t> targets, const Pulse& pulse,
                                             const ContextMemory<float>& context, StepObserver* observer, std::size_t stream,
                                             tape::ContextSpill* spill) {
  TimedPhase forward(observer, StepPhase::forward, stream);
  if (const common::Status s = check_chunk_inputs(cfg, params, ids, targets, pulse, context); !s.ok()) {
    return tape::TapeFailure(s.error(), false);
  }
  return tape::try_with_tape([&](tape::Tape& t) {
    t.set_context_spill(spill);
    // A hook that pages state trajectories: the rules' forwards below find it on this thread.
    const tape::StatePagerScope pager(spill != nullptr ? spill->state_pager() : nullptr);
    const TapeParams tp = register_params(t, cfg, params);
    TracedChunk chunk = traced_cms_forward(t, registry, cfg, tp, ids, targets, pulse, context);
    forward.end();
    TimedPhase backward(observer, StepPhase::backward, stream);
    t.backward(chunk.loss.id());
    TapeGradients out;
    out.loss = chunk.loss.item();
    out.context_after = std::move(chunk.context_after);
    out.pulse = chunk.pulse;
    out.grads.params = MagParams<float>::zeros(cfg);
    MagParams<float>& g = out.grads.params;
    g.e = t.get_grad(tp.e.id()), g.w_q = t.get_grad(tp.w_q.id()), g.w_k = t.get_grad(tp.w_k.id());
    g.w_v = t.get_grad(tp.w_v.id()), g.w_o = t.get_grad(tp.w_o.id()), g.u_emb = t.get_grad(tp.u_emb.id());
    out.grads.error.assign(cfg.levels(), LevelParams<float>::zeros(cfg.d, has_omega(cfg.rule)));
    for (std::size_t l = 0; l < cfg.levels(); ++l) {
      const std::vector<float> flat = t.get_grad(tp.levels[l].id());
      auto lp = LevelParams<float>::from_flat(flat, cfg.d, has_omega(cfg.rule));
      (out.pulse.is_active(l) ? g.levels[l] : out.grads.error[l]) = std::move(*lp);
    }
    if (cfg.learned_schedule()) g.w_freq = t.get_grad(tp.w_freq.id()), g.b_freq = t.get_grad(tp.b_freq.id());
    return out;
  });
}

}  // namespace nl
