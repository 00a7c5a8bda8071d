// jax_mlp.LayerNorm, as the JAX writer defines it (apps/bp/extract/jax_mlp.py), per row of n values:
//   forward   mean = sum(x) / n; c = x - mean; var = sum(c * c) / n      (two passes, biased)
//             rstd = rsqrt(var + eps); t = c * rstd; y = t * gamma + beta
//   backward  (what jax.grad derives, equation for equation: jax.make_jaxpr of its grad)
//             dt = dy gamma; h = sum_j c dt; a = c (h (-0.5 (rstd / v)) / n)  (v = var + eps)
//             dc = (dt rstd + a) + a   (x * x's two tangents, accumulated one at a time)
//             dx = dc + (sum_j -dc) / n; dgamma = sum over rows dy t; dbeta = sum over rows dy
// XLA's CPU rsqrt is not correctly rounded (an exhaustive sweep over [1, 4), its period: within
// 2.8 units of fp32 rounding); 4 are allowed. Under jit XLA turns a division by a constant into a
// multiplication by its rounded reciprocal: one rounding more is allowed there (divide_by_constant).
// The variance is bounded directly, not through Tracked's operations, which would treat the
// mean's error as if it moved every centred value the same way: S(m) = sum (x - m)^2 is flat at
// the mean, so the fp32 mean's error e_m enters S at second order (n e_m^2), the inputs' errors
// at first (sum 2 |x - mean| e_x + sum e_x^2). Its own roundings: c's subtraction (2u on a
// square), the square (u), a sum in any order ((n - 1) u) and the division (2u): (n + 6) u S
// allows for more.
#include "mlp_audit/layer_norm_jax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mlp_audit/layer_norm.hpp"
#include "mlp_audit/sums.hpp"

namespace mlp_audit {
namespace layer_norm_jax_detail {  // named: the unity build shares one anonymous namespace

// jnp.mean (a sum in any order, then / n) and the biased variance of one row, with their bounds.
void two_pass_moments(const T32* x, std::size_t n, T32& mean, T32& var) {
  const double nn = static_cast<double>(n), u = T32::u;
  const RowSums r = row_moment_sums(x, n);
  const double mean_rounding = (nn + 3) * u / (1 - (nn + 3) * u);
  mean = T32::exact(r.mean, r.propagated / nn + mean_rounding * r.largest + T32::tiny);
  const double p = r.first + r.second + 2 * std::abs(r.centred) * mean.e + nn * mean.e * mean.e;
  const double own = (nn + 6) * u / (1 - (nn + 6) * u);
  var = T32::exact(r.s / nn, (p + own * (r.s + p)) / nn + T32::tiny);
}

// XLA's rsqrt: 1 / sqrt over the operand's interval, plus 4 units of rounding.
T32 rsqrt(const T32& x) {
  if (!(x.v - x.e >= static_cast<double>(std::numeric_limits<float>::min()))) {
    return T32::exact(1 / std::sqrt(x.v), std::numeric_limits<double>::infinity());
  }
  return common::monotone_map(x, [](double t) { return 1 / std::sqrt(t); }, 4);
}

// Column sums of an r x c row-major matrix (a sum over the rows in any order).
std::vector<T32> column_sums(const std::vector<T32>& m, std::size_t r, std::size_t c) {
  std::vector<T32> t(m.size());
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) t[j * r + i] = m[i * c + j];
  return row_sums(t, c, r);
}

}  // namespace layer_norm_jax_detail

T32 divide_by_constant(const T32& a, const T32& d) {
  T32 q = a / d;
  q.e += T32::u * std::abs(q.v) + T32::tiny;
  return q;
}

JaxNormForward layer_norm_jax(const std::vector<T32>& x, std::size_t rows, std::size_t n, double eps, const std::vector<T32>& gamma,
                              const std::vector<T32>& beta) {
  JaxNormForward f;
  f.y.resize(rows * n), f.c.resize(rows * n), f.t.resize(rows * n), f.v.resize(rows), f.rstd.resize(rows);
  const bool affine = !gamma.empty();
  const T32 epsilon(static_cast<double>(static_cast<float>(eps)));  // a Python float: a weakly typed fp32 constant
  for (std::size_t i = 0; i < rows; ++i) {
    T32 mean, var;
    layer_norm_jax_detail::two_pass_moments(&x[i * n], n, mean, var);
    f.v[i] = var + epsilon;
    f.rstd[i] = layer_norm_jax_detail::rsqrt(f.v[i]);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = i * n + j;
      f.c[k] = x[k] - mean;
      f.t[k] = f.c[k] * f.rstd[i];
      f.y[k] = affine ? f.t[k] * gamma[j] + beta[j] : f.t[k];
    }
  }
  return f;
}

JaxNormBackward layer_norm_jax_backward(const std::vector<T32>& dy, const JaxNormForward& f, std::size_t rows, std::size_t n,
                                        const std::vector<T32>& gamma) {
  JaxNormBackward r;
  const bool affine = !gamma.empty();
  std::vector<T32> dt(rows * n), cdt(rows * n);
  for (std::size_t k = 0; k < dt.size(); ++k) {
    dt[k] = affine ? dy[k] * gamma[k % n] : dy[k];
    cdt[k] = f.c[k] * dt[k];
  }
  const std::vector<T32> h = row_sums(cdt, rows, n);
  const T32 count(static_cast<double>(n)), half(-0.5);
  std::vector<T32>& dc = r.dx;
  dc.resize(rows * n);
  for (std::size_t i = 0; i < rows; ++i) {
    const T32 ds = divide_by_constant(h[i] * (half * (f.rstd[i] / f.v[i])), count);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = i * n + j;
      const T32 a = f.c[k] * ds;
      dc[k] = (dt[k] * f.rstd[i] + a) + a;
    }
  }
  const std::vector<T32> sums = row_sums(dc, rows, n);  // of -dc: the same bound, negated
  for (std::size_t i = 0; i < rows; ++i) {
    const T32 shift = divide_by_constant(-sums[i], count);
    for (std::size_t j = 0; j < n; ++j) dc[i * n + j] = dc[i * n + j] + shift;
  }
  if (!affine) return r;
  std::vector<T32> dyt(rows * n);
  for (std::size_t k = 0; k < dyt.size(); ++k) dyt[k] = dy[k] * f.t[k];
  r.dgamma = layer_norm_jax_detail::column_sums(dyt, rows, n), r.dbeta = layer_norm_jax_detail::column_sums(dy, rows, n);
  return r;
}

}  // namespace mlp_audit
