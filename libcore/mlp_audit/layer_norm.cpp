// ATen's CPU LayerNorm (torch 1.13 to 2.x), per row of n values:
//   forward   mean, var = RowwiseMoments(x) (Welford, biased); rstd = 1 / sqrt(max(var, 0) + eps);
//             y = (x * rstd + (-rstd * mean)) * gamma + beta
//   backward  ds = sum dy gamma x, db = sum dy gamma; b = (db mean - ds) rstd^3 / n;
//             c = -b mean - db rstd / n; dx = rstd dy gamma + b x + c;
//             dgamma = sum over rows dy (rstd x - rstd mean); dbeta = sum over rows dy
// The moments are bounded directly rather than through Tracked's operations, which would treat
// the mean's error as if it moved every centred value the same way: S(c) = sum (x - c)^2 is
// flat at the mean, so the fp32 mean's error enters S at second order (n e_m^2), the inputs'
// errors at first (sum 2 |x - m| e_x). Welford's running mean m_k = m_(k-1) + (x_k - m_(k-1)) / k
// rounds to within u (n/2 + 5) max |x| (each step's errors shrink by (1 - 1/j) afterwards);
// (n + 5) is allowed for ATen's lane-wise Welford and its combines. Its M2 += d_k (x_k - m_k)
// adds (n + 6) u S of roundings and, through the running means' errors, u (n + 10) max |x|
// sum |d_k| <= u (n + 10) max |x| sqrt(2 n S).
#include "mlp_audit/layer_norm.hpp"

#include <algorithm>
#include <cmath>

#include "mlp_audit/sums.hpp"

namespace mlp_audit {
namespace layer_norm_detail {  // named: the unity build shares one anonymous namespace

// Mean and biased variance of one row, with their bounds.
void moments(const T32* x, std::size_t n, T32& mean, T32& var) {
  const double nn = static_cast<double>(n), u = T32::u;
  const RowSums r = row_moment_sums(x, n);
  mean = T32::exact(r.mean, r.propagated / nn + (nn + 5) * u * r.largest + T32::tiny);
  const double err = r.first + r.second + 2 * std::abs(r.centred) * mean.e + nn * mean.e * mean.e + (nn + 6) * u * r.s +
                     (nn + 10) * u * r.largest * std::sqrt(2 * nn * r.s) + T32::tiny;
  var = T32::rounded(r.s / nn, err / nn);
}

}  // namespace layer_norm_detail

RowSums row_moment_sums(const T32* x, std::size_t n) {
  RowSums r;
  double sum = 0;
  for (std::size_t j = 0; j < n; ++j) sum += x[j].v, r.propagated += x[j].e, r.largest = std::max(r.largest, std::abs(x[j].v) + x[j].e);
  r.mean = sum / static_cast<double>(n);
  for (std::size_t j = 0; j < n; ++j) {
    const double d = x[j].v - r.mean;
    r.s += d * d, r.centred += d;
    r.first += 2 * std::abs(d) * x[j].e, r.second += x[j].e * x[j].e;
  }
  return r;
}

NormForward layer_norm(const std::vector<T32>& x, std::size_t rows, std::size_t n, double eps, const std::vector<T32>& gamma,
                       const std::vector<T32>& beta) {
  NormForward f;
  f.y.resize(rows * n), f.mean.resize(rows), f.rstd.resize(rows);
  const bool affine = !gamma.empty();
  for (std::size_t i = 0; i < rows; ++i) {
    T32 var;
    layer_norm_detail::moments(&x[i * n], n, f.mean[i], var);
    const T32 rstd = T32(1) / sqrt(max(var, T32(0)) + T32(eps));
    const T32 bias = -rstd * f.mean[i];
    f.rstd[i] = rstd;
    for (std::size_t j = 0; j < n; ++j) {
      const T32 z = x[i * n + j] * rstd + bias;
      f.y[i * n + j] = affine ? z * gamma[j] + beta[j] : z;
    }
  }
  return f;
}

NormBackward layer_norm_backward(const std::vector<T32>& dy, const std::vector<T32>& x, const NormForward& f, std::size_t rows,
                                 std::size_t n, const std::vector<T32>& gamma) {
  NormBackward r;
  const bool affine = !gamma.empty();
  r.dx.resize(rows * n);
  std::vector<T32> dyg(rows * n), dygx(rows * n);
  for (std::size_t k = 0; k < dyg.size(); ++k) {
    dyg[k] = affine ? dy[k] * gamma[k % n] : dy[k];
    dygx[k] = dyg[k] * x[k];
  }
  const std::vector<T32> ds = row_sums(dygx, rows, n), db = row_sums(dyg, rows, n);
  const T32 scale = T32(1) / T32(static_cast<double>(n));
  for (std::size_t i = 0; i < rows; ++i) {
    const T32& a = f.rstd[i];
    const T32 b = (db[i] * f.mean[i] - ds[i]) * a * a * a * scale;
    const T32 c = -b * f.mean[i] - db[i] * a * scale;
    for (std::size_t j = 0; j < n; ++j) r.dx[i * n + j] = a * dyg[i * n + j] + b * x[i * n + j] + c;
  }
  if (!affine) return r;
  std::vector<T32> terms(n * rows), dyt(n * rows);  // column sums, as row sums of the transposes
  for (std::size_t i = 0; i < rows; ++i) {
    const T32 shift = -f.rstd[i] * f.mean[i];
    for (std::size_t j = 0; j < n; ++j) {
      terms[j * rows + i] = dy[i * n + j] * (f.rstd[i] * x[i * n + j] + shift);
      dyt[j * rows + i] = dy[i * n + j];
    }
  }
  r.dgamma = row_sums(terms, n, rows), r.dbeta = row_sums(dyt, n, rows);
  return r;
}

}  // namespace mlp_audit
