#include "tape/ops/nl_normalized_silu.hpp"

#include <cassert>
#include <cmath>

#include "common/tracked.hpp"
#include "tape/ops/activation.hpp"
#include "tape/ops/nl_row_norm_op.hpp"

namespace tape::ops {

template <typename T>
void normalized_silu_forward(std::span<const T> x, std::size_t rows, std::size_t cols, std::span<T> out,
                             std::span<T> row_norms) {
  assert(x.size() == rows * cols && out.size() == x.size() && (row_norms.empty() || row_norms.size() == rows));
  using std::sqrt;  // and sqrt(Tracked) by argument-dependent lookup
  const T gain = sqrt(static_cast<T>(cols));
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x.data() + r * cols;
    T* o = out.data() + r * cols;
    T sq = 0;
    for (std::size_t j = 0; j < cols; ++j) {
      o[j] = xr[j] * clamped_sigmoid(xr[j]);
      sq += o[j] * o[j];
    }
    const T n = sqrt(sq);
    if (!row_norms.empty()) row_norms[r] = n;
    // Below eps the direction is noise: the spec pins the output (and gradient) to 0.
    const T scale = n > static_cast<T>(kNormalizedSiluEps) ? gain / n : T(0);
    for (std::size_t j = 0; j < cols; ++j) o[j] *= scale;
  }
}

template <typename T>
void normalized_silu_backward(std::span<const T> x, std::span<const T> out, std::span<const T> row_norms,
                              std::span<const T> d_out, std::size_t rows, std::size_t cols, std::span<T> d_x) {
  assert(x.size() == rows * cols && out.size() == x.size() && d_out.size() == x.size() && d_x.size() == x.size());
  using std::sqrt;  // and sqrt(Tracked) by argument-dependent lookup
  const T gain = sqrt(static_cast<T>(cols));
  for (std::size_t r = 0; r < rows; ++r) {
    const T n = row_norms[r];
    if (!(n > static_cast<T>(kNormalizedSiluEps))) continue;
    const T* xr = x.data() + r * cols;
    const T* o = out.data() + r * cols;
    const T* g = d_out.data() + r * cols;
    T* dx = d_x.data() + r * cols;
    // With c_hat = out / sqrt(m): d_c = (sqrt(m)/n) (g - c_hat (c_hat . g)) = (sqrt(m)/n) g - out (out . g) / (m n / sqrt(m)).
    T dot = 0;
    for (std::size_t j = 0; j < cols; ++j) dot += o[j] * g[j];
    const T a = gain / n;
    const T b = dot / (gain * n);  // c_hat (c_hat . g) * sqrt(m)/n = out * dot / (sqrt(m) n)
    for (std::size_t j = 0; j < cols; ++j) {
      const T dc = a * g[j] - b * o[j];
      dx[j] += dc * silu_derivative(xr[j]);
    }
  }
}

template void normalized_silu_forward<float>(std::span<const float>, std::size_t, std::size_t, std::span<float>,
                                             std::span<float>);
template void normalized_silu_forward<double>(std::span<const double>, std::size_t, std::size_t, std::span<double>,
                                              std::span<double>);
template void normalized_silu_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::size_t, std::size_t, std::span<common::Tracked<float>>,
                                              std::span<common::Tracked<float>>);
template void normalized_silu_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::size_t, std::size_t, std::span<common::Tracked<double>>,
                                              std::span<common::Tracked<double>>);
template void normalized_silu_backward<float>(std::span<const float>, std::span<const float>, std::span<const float>,
                                              std::span<const float>, std::size_t, std::size_t, std::span<float>);
template void normalized_silu_backward<double>(std::span<const double>, std::span<const double>,
                                               std::span<const double>, std::span<const double>, std::size_t,
                                               std::size_t, std::span<double>);
template void normalized_silu_backward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>,
                                               std::span<const common::Tracked<float>>, std::span<const common::Tracked<float>>, std::size_t,
                                               std::size_t, std::span<common::Tracked<float>>);
template void normalized_silu_backward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>,
                                               std::span<const common::Tracked<double>>, std::span<const common::Tracked<double>>, std::size_t,
                                               std::size_t, std::span<common::Tracked<double>>);

namespace {

void normalized_silu_vjp(const CustomOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.outputs[0]);
  const std::span<float> dx = tape.grad_accumulator(op.inputs[0]);
  if (g.empty() || dx.empty()) return;
  normalized_silu_backward<float>(tape.data(op.inputs[0]), tape.data(op.outputs[0]), saved_row_norms(op, tape), g,
                                  op.dims[0], op.dims[1], dx);
}

}  // namespace

Tensor normalized_silu(const Tensor& x) {
  return record_row_norm_op("NormalizedSiLU", normalized_silu_forward<float>, normalized_silu_vjp, x);
}

}  // namespace tape::ops
