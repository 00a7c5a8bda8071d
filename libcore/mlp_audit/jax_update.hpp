#pragma once
// The optimizers of jax.example_libraries.optimizers, recomputed with error bounds as step.hpp's
// optimizer_update does for torch's: sgd (x - lr g), momentum (v = mass v + g; x - lr v),
// nesterov (v = mass v + g; x - lr (mass v + g)) and adam (m = (1 - b1) g + b1 m,
// v = (1 - b2) g^2 + b2 v, x - lr (m / (1 - b1^k)) / (sqrt(v / (1 - b2^k)) + eps) with
// k = i + 1), each operation in JAX's order with its Python constants rounded to fp32 as JAX
// does (weakly typed), b1^k in fp32 by repeated squaring (lax.integer_pow) or by pow (lax.pow,
// when the step index is traced under jit): the bound covers both. XLA may fuse a multiply and
// an add into one rounding; a fused result lies inside the bound of the unfused one.
#include <cstdint>
#include <vector>

#include "mlp_audit/model.hpp"
#include "mlp_audit/step.hpp"

namespace mlp_audit {

// `rate`: step_size(i) as it scaled the update (a constant lr: T32(lr), a Python float rounded
// to fp32 as JAX's weak typing does; a schedule: jax_schedule_lr). `step`: k = i + 1 for the
// update opt_update(i, ...) made; state[s][p] as for optimizer_update (zeros before the first
// step). o.kind must be one of the jax kinds.
[[nodiscard]] Update jax_optimizer_update(const Optimizer& o, const T32& rate, std::uint64_t step, const Params& params,
                                          const std::vector<std::vector<T32>>& gradients, const std::vector<Params>& state);

// optimizers.clip_grads(grads, max_norm) as the writer's clip_grads ran it: norm =
// sqrt(sum(vdot(g, g) for each leaf)) (leaves in parameter order, XLA's dot in any order), then
// where(norm < max_norm, g, g * (max_norm / norm)) in fp32. Where the norm's interval holds
// max_norm, either branch is possible and each gradient entry holds both.
[[nodiscard]] Clip jax_clip_grads(const Params& gradients, double max_norm);

}  // namespace mlp_audit
