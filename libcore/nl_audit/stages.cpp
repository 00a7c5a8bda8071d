#include "nl_audit/stages.hpp"

#include "nl/error_buffer.hpp"

namespace nl_audit {

template <typename T>
BasicStageResult<T> run_stages(const nl::BasicTrainerState<T>& before, const nl::BasicStepTrace<T>& stored, const nl::Pulse& pulse,
                               const nl::ContextMemory<T>& context_after) {
  const nl::MagConfig& cfg = before.cfg;
  BasicStageResult<T> out;
  nl::MagParams<T> g = stored.gradients;
  out.grad_norm = nl::clip_global_norm(g, before.opt.clip);
  if (out.grad_norm > before.opt.clip) out.clip_scale = nl::clip_scale<T>(before.opt.clip, out.grad_norm);
  out.after = before;
  nl::BasicFrequencyAwareAdamW<T> adam(cfg, before.opt);
  adam.restore(before.adam);
  adam.step(out.after.params, g, pulse, stored.lr);
  out.after.adam = adam.state();
  for (std::size_t l = 0; l < cfg.levels(); ++l) {
    nl::ErrorBuffer<T> b(cfg.d, nl::has_omega(cfg.rule));
    b.restore(before.buffer_sums[l], before.buffer_counts[l]);
    if (pulse.is_active(l)) {
      nl::LevelParams<T> sink = nl::LevelParams<T>::zeros(cfg.d, nl::has_omega(cfg.rule));
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

template BasicStageResult<float> run_stages(const nl::TrainerState&, const nl::StepTrace&, const nl::Pulse&,
                                            const nl::ContextMemory<float>&);
template BasicStageResult<double> run_stages(const nl::TrainerState64&, const nl::StepTrace64&, const nl::Pulse&,
                                             const nl::ContextMemory<double>&);

}  // namespace nl_audit
