#include "mlp_audit/jax_update.hpp"

#include <algorithm>
#include <cmath>

namespace mlp_audit {
namespace {

// b^k in fp32 as lax.integer_pow computes it: square-and-multiply from the lowest bit.
T32 integer_pow(T32 base, std::uint64_t k) {
  T32 acc;
  bool first = true;
  while (k > 0) {
    if ((k & 1) != 0) {
      acc = first ? base : acc * base;
      first = false;
    }
    k >>= 1;
    if (k > 0) base = base * base;
  }
  return first ? T32(1) : acc;
}

// b^k either way JAX may have computed it (a concrete or a traced step index): the interval
// holding both.
T32 fp32_power(double b, std::uint64_t k) {
  const T32 base(b);  // jnp.asarray(b, float32)
  const T32 squared = integer_pow(base, k);
  const T32 libm = pow(base, T32(static_cast<double>(k)));
  const double lo = std::min(squared.v - squared.e, libm.v - libm.e), hi = std::max(squared.v + squared.e, libm.v + libm.e);
  return T32::exact((lo + hi) / 2, (hi - lo) / 2);
}

}  // namespace

Update jax_optimizer_update(const Optimizer& o, double lr, std::uint64_t step, const Params& params,
                            const std::vector<std::vector<T32>>& gradients, const std::vector<Params>& state) {
  Update u;
  u.params = exact_all(params);
  for (const Params& s : state) u.state.push_back(exact_all(s));
  const T32 rate(lr);  // step_size(i): a Python float, weakly typed
  T32 c1(0), c2(0), mass(o.mass), b1(o.beta1), b2(o.beta2), w1(1 - o.beta1), w2(1 - o.beta2), eps(o.eps);
  if (o.kind == OptimizerKind::jax_adam) c1 = T32(1) - fp32_power(o.beta1, step), c2 = T32(1) - fp32_power(o.beta2, step);
  for (std::size_t p = 0; p < params.size(); ++p) {
    std::vector<T32>& x = u.params[p];
    const std::vector<T32>& g = gradients[p];
    for (std::size_t i = 0; i < x.size(); ++i) {
      switch (o.kind) {
        case OptimizerKind::jax_momentum:
        case OptimizerKind::jax_nesterov: {
          T32& v = u.state[0][p][i];
          v = mass * v + g[i];
          x[i] = x[i] - rate * (o.kind == OptimizerKind::jax_nesterov ? mass * v + g[i] : v);
          break;
        }
        case OptimizerKind::jax_adam: {
          T32& m = u.state[0][p][i];
          T32& v = u.state[1][p][i];
          m = w1 * g[i] + b1 * m;
          v = w2 * (g[i] * g[i]) + b2 * v;
          const T32 mhat = m / c1, vhat = v / c2;
          x[i] = x[i] - rate * mhat / (sqrt(vhat) + eps);
          break;
        }
        default: x[i] = x[i] - rate * g[i];  // jax_sgd
      }
    }
  }
  return u;
}

}  // namespace mlp_audit
