#pragma once
// The activation after a layer, forward (activate) and backward (derive), in ATen's CPU
// formulas, operation for operation, carried at common::Tracked<float>.
#include <cstdint>

#include "mlp_audit/either.hpp"
#include "mlp_audit/model.hpp"

namespace mlp_audit {

// a = f(z).
[[nodiscard]] T32 activate(const Layer& l, const T32& z);
// dL/dz from dL/da = g, given z and a = f(z). A kink input (ReLU, LeakyReLU) within its bound of
// 0 takes both slopes' interval and counts in `kinks`.
[[nodiscard]] T32 derive(const Layer& l, const T32& z, const T32& a, const T32& g, std::uint64_t& kinks);

}  // namespace mlp_audit
