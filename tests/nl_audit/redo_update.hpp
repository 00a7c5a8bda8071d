#pragma once
// Forged steps for the nl_audit tests (fp32 and fp64 runs): the clip and the AdamW update done again, from `trace`'s
// gradient and learning rate, as the trainer does them (a forged gradient or rate with
// consistent consequences, or what another summation order gives).
#include "nl/adamw.hpp"
#include "nl/trainer.hpp"

namespace nl_audit_test {

template <typename T>
void redo_update(const nl::BasicTrainerState<T>& before, nl::BasicStepTrace<T>& trace, const nl::Pulse& pulse,
                 nl::BasicTrainerState<T>& after) {
  nl::MagParams<T> g = trace.gradients;
  trace.grad_norm = nl::clip_global_norm(g, before.opt.clip);
  trace.clip_scale.reset();
  if (trace.grad_norm > before.opt.clip) trace.clip_scale = nl::clip_scale<T>(before.opt.clip, trace.grad_norm);
  nl::BasicFrequencyAwareAdamW<T> a(before.cfg, before.opt);
  a.restore(before.adam);
  after.params = before.params;
  a.step(after.params, g, pulse, trace.lr);
  after.adam = a.state();
}

}  // namespace nl_audit_test
