#pragma once
// The activation after a Dense layer in a jax receipt, forward and backward, as JAX computes
// them: jax.nn's formulas in their operation order, the backward as jax.grad's autodiff of them
// (its jaxpr, operation for operation), and XLA's CPU transcendentals with their measured
// allowances (xla_math.hpp). ReLU, LeakyReLU and Identity are torch's (activation.hpp): no
// rounding, and a kink taken from either side; but LeakyReLU's derivative at an exact 0 is JAX's, 1.
#include <cstdint>

#include "mlp_audit/either.hpp"
#include "mlp_audit/model.hpp"

namespace mlp_audit {

// a = f(z).
[[nodiscard]] T32 jax_activate(const Layer& l, const T32& z);
// dL/dz from dL/da = g, given z and a = f(z).
[[nodiscard]] T32 jax_derive(const Layer& l, const T32& z, const T32& a, const T32& g, std::uint64_t& kinks);

}  // namespace mlp_audit
