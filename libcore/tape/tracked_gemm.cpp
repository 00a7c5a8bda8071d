// BLAS products of Tracked<A> operands (way (b) of bp verify nltrain runs the nl formulas at
// that type; tape/ops/matmul and nl/blas both come here). The value is the dgemm of the values;
// the bound covers an A-precision gemm of the A operands in any summation order (OpenBLAS blocks
// and fuses differently per core type): with |aA - a| <= ea and |bA - b| <= eb entrywise,
//   |gemm_A(aA, bA) - dgemm(a, b)| <= (|a| + ea) eb + ea |b| + g_k (|a| + ea)(|b| + eb),
// g_k = k u / (1 - k u) the classical bound of a length-k dot product in any order (fused
// multiply-adds included), u covering both evaluations' roundings as in Tracked: for A = double,
// ours and the trainer's dgemm each contribute binary64's, so u = 2^-52. Each term is one dgemm
// of non-negative matrices, whose own rounding (relative, at most g_k in binary64) is covered by
// kSelf below.
#include <cmath>
#include <vector>

#include "tape/tracked_gemm.hpp"

#include <cblas.h>

namespace tape {
namespace {

constexpr double kSelf = 0x1p-40;  // relative slack for the bound's own binary64 arithmetic

// An operand as dgemm reads it: values, and |value| + error. The errors themselves, and |value|
// apart from them, only where some error is not zero (`exact` false): an operand whose errors are
// all exactly zero (a receipt's parameters and inputs) contributes no error product, and its
// |value| + error is |value|.
struct Split {
  bool exact = true;
  std::vector<double> v, mag_e, e, mag;
};

template <class A>
Split split(const common::Tracked<A>* x, std::size_t n, bool need_mag) {
  Split s;
  for (std::size_t i = 0; i < n && s.exact; ++i) s.exact = x[i].e == 0;
  s.v.resize(n), s.mag_e.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.v[i] = x[i].v, s.mag_e[i] = std::abs(x[i].v) + x[i].e;
  if (s.exact) return s;
  s.e.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.e[i] = x[i].e;
  if (need_mag) {
    s.mag.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.mag[i] = std::abs(x[i].v);
  }
  return s;
}

void dgemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0, a, ta ? static_cast<int>(m) : static_cast<int>(k), b,
              tb ? static_cast<int>(k) : static_cast<int>(n), 0.0, c, static_cast<int>(n));
}

template <class A>
double gamma(std::size_t k) {
  const double ku = static_cast<double>(k) * common::Tracked<A>::u;
  return ku / (1 - ku);
}

}  // namespace

template <class A>
void tracked_gemm(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, const common::Tracked<A>* a,
                  const common::Tracked<A>* b, bool add, common::Tracked<A>* c) {
  using T = common::Tracked<A>;
  if (m == 0 || n == 0) return;
  const std::size_t mn = m * n;
  if (k == 0) {
    if (!add)
      for (std::size_t i = 0; i < mn; ++i) c[i] = T{};
    return;
  }
  // ea |b| needs b's |value| apart from its error only when both operands carry errors.
  const Split sa = split(a, m * k, false);
  const Split sb = split(b, k * n, !sa.exact);
  std::vector<double> val(mn), mag(mn), err(sb.exact ? 0 : mn), err2(sa.exact ? 0 : mn);
  dgemm(ta, tb, m, n, k, sa.v.data(), sb.v.data(), val.data());
  dgemm(ta, tb, m, n, k, sa.mag_e.data(), sb.mag_e.data(), mag.data());
  // The error products of an operand whose errors are all zero are zero: skipped, not computed.
  if (!sb.exact) dgemm(ta, tb, m, n, k, sa.mag_e.data(), sb.e.data(), err.data());
  if (!sa.exact) dgemm(ta, tb, m, n, k, sa.e.data(), sb.exact ? sb.mag_e.data() : sb.mag.data(), err2.data());
  const std::size_t terms = add ? k + 1 : k;
  const double g = gamma<A>(terms), tiny = 2 * static_cast<double>(terms) * T::tiny;
  for (std::size_t i = 0; i < mn; ++i) {
    double value = val[i], prop = (sb.exact ? 0 : err[i]) + (sa.exact ? 0 : err2[i]), scale = mag[i];
    if (add) value += c[i].v, prop += c[i].e, scale += std::abs(c[i].v) + c[i].e;
    c[i] = T::exact(value, (prop + g * scale) * (1 + kSelf) + tiny);
  }
}

template void tracked_gemm<float>(bool, bool, std::size_t, std::size_t, std::size_t, const common::Tracked<float>*,
                                  const common::Tracked<float>*, bool, common::Tracked<float>*);
template void tracked_gemm<double>(bool, bool, std::size_t, std::size_t, std::size_t, const common::Tracked<double>*,
                                   const common::Tracked<double>*, bool, common::Tracked<double>*);

}  // namespace tape
