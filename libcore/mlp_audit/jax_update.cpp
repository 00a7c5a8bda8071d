#include "mlp_audit/jax_update.hpp"

#include <cmath>

#include "mlp_audit/jax_power.hpp"
#include "tape/tracked_gemm.hpp"

namespace mlp_audit {

Update jax_optimizer_update(const Optimizer& o, const T32& rate, std::uint64_t step, const Params& params,
                            const std::vector<std::vector<T32>>& gradients, const std::vector<Params>& state) {
  Update u;
  u.params = exact_all(params);
  for (const Params& s : state) u.state.push_back(exact_all(s));
  T32 c1(0), c2(0), mass(o.mass), b1(o.beta1), b2(o.beta2), w1(1 - o.beta1), w2(1 - o.beta2), eps(o.eps);
  if (o.kind == OptimizerKind::jax_adam) c1 = T32(1) - fp32_power(T32(o.beta1), step), c2 = T32(1) - fp32_power(T32(o.beta2), step);
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

Clip jax_clip_grads(const Params& gradients, double max_norm) {
  Clip c;
  c.gradients = exact_all(gradients);
  T32 total;
  for (std::size_t p = 0; p < c.gradients.size(); ++p) {
    const std::vector<T32>& g = c.gradients[p];
    T32 dot;
    tape::tracked_gemm(false, false, 1, 1, g.size(), g.data(), g.data(), false, &dot);
    total = p == 0 ? dot : total + dot;  // Python's sum: 0 + the first leaf's is exact
  }
  c.total_norm = sqrt(total);
  const double limit = static_cast<float>(max_norm);  // a Python float, weakly typed: fp32
  const T32 coef = T32(limit) / c.total_norm;
  const T32& n = c.total_norm;
  const bool may_keep = n.v - n.e < limit, may_scale = n.v + n.e >= limit;
  for (std::vector<T32>& g : c.gradients)
    for (T32& x : g) {
      const T32 scaled = x * coef;
      x = !may_scale ? x : !may_keep ? scaled : hull(x, scaled);
    }
  return c;
}

}  // namespace mlp_audit
