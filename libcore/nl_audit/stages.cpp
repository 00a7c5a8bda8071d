#include "nl_audit/stages.hpp"

#include "nl/error_buffer.hpp"

namespace nl_audit {

StageResult run_stages(const nl::TrainerState& before, const nl::StepTrace& stored, const nl::Pulse& pulse,
                       const nl::ContextMemory<float>& context_after) {
  const nl::MagConfig& cfg = before.cfg;
  StageResult out;
  nl::MagParams<float> g = stored.gradients;
  out.grad_norm = nl::clip_global_norm(g, before.opt.clip);
  if (out.grad_norm > before.opt.clip) out.clip_scale = nl::clip_scale(before.opt.clip, out.grad_norm);
  out.after = before;
  nl::FrequencyAwareAdamW adam(cfg, before.opt);
  adam.restore(before.adam);
  adam.step(out.after.params, g, pulse, stored.lr);
  out.after.adam = adam.state();
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    nl::ErrorBuffer<float> b(cfg.d, nl::has_omega(cfg.rule));
    b.restore(before.buffer_sums[l], before.buffer_counts[l]);
    if (pulse.is_active(l)) {
      nl::LevelParams<float> sink = nl::LevelParams<float>::zeros(cfg.d, nl::has_omega(cfg.rule));
      b.apply_to(sink);  // summed into the gradient, which the receipt already holds: the buffer empties
    } else {
      b.accumulate(stored.error[l]);
    }
    out.after.buffer_sums[l] = b.sum();
    out.after.buffer_counts[l] = b.count();
  }
  out.after.context = context_after;
  out.after.step = before.step + 1;
  return out;
}

}  // namespace nl_audit
