// ATen's loss kernels, operation for operation (torch 1.13 and 2.x; where they spell a formula
// differently both are covered by `either`):
//   cross_entropy      log_softmax as (x - max) - log(sum exp) or x - (max + log(sum exp)), then
//                      nll_loss; backward log_softmax_backward g - exp(out) * sum(g)
//   mse                (y - t)^2 summed, / numel for mean; backward (2 / n) (y - t) g
//   half_squared_error bp's own nn.Module (pytorch_mlp.py): 0.5 * mse_loss(y, t, reduction), i.e.
//                      sum: 1/2 sum (y - t)^2; mean: 1/2 sum (y - t)^2 / (batch * classes)
//   bce_with_logits    (1 - t) x + m + log(exp(-m) + exp(-x - m)), m = max(-x, 0) (torch 1.x), or
//                      (1 - t) x - log_sigmoid(x) with log_sigmoid = min(x, 0) - log1p(exp(-|x|))
//                      (torch 2.x); backward (sigmoid(x) - t) g, / numel for mean
// CPU mean is sum then division by the count (at::mean_out), so the bounds divide.
#include "mlp_audit/loss.hpp"

#include "mlp_audit/sums.hpp"

namespace mlp_audit {
namespace loss_detail {  // named: the unity build shares one anonymous namespace

LossGradient cross_entropy(const Model& m, const std::vector<T32>& y, std::span<const float> target, std::size_t batch) {
  const std::size_t c = m.layers.back().out;
  LossGradient r;
  r.grad.resize(batch * c);
  const T32 grad_out(1);
  std::vector<T32> shifted(batch * c), e(batch * c), out(batch * c), picked(batch), row_max(batch);
  for (std::size_t i = 0; i < batch; ++i) {
    T32 mx = y[i * c];
    for (std::size_t j = 1; j < c; ++j) mx = max(mx, y[i * c + j]);
    row_max[i] = mx;
    for (std::size_t j = 0; j < c; ++j) shifted[i * c + j] = y[i * c + j] - mx, e[i * c + j] = exp(shifted[i * c + j]);
  }
  const std::vector<T32> sums = row_sums(e, batch, c);
  for (std::size_t i = 0; i < batch; ++i) {
    // (x - max) - log(sum) or x - (max + log(sum)) (ATen's vectorized kernel): either is covered.
    const T32 ls = log(sums[i]), mx_ls = row_max[i] + ls;
    for (std::size_t j = 0; j < c; ++j) out[i * c + j] = either(shifted[i * c + j] - ls, y[i * c + j] - mx_ls);
    picked[i] = -out[i * c + static_cast<std::size_t>(target[i])];
  }
  const T32 denom = m.reduction == Reduction::mean ? T32(static_cast<double>(batch)) : T32(1);
  r.loss = total(picked) / denom;
  const T32 g = -grad_out / denom;  // nll_loss_backward at the target, zero elsewhere
  for (std::size_t i = 0; i < batch; ++i)
    for (std::size_t j = 0; j < c; ++j) {
      const T32 gj = j == static_cast<std::size_t>(target[i]) ? g : T32(0);
      r.grad[i * c + j] = gj - exp(out[i * c + j]) * g;
    }
  return r;
}

// mse_loss scaled by `scale` (1, or 0.5 for the half squared error: a multiplication after it,
// whose backward hands mse_loss_backward 0.5 as its grad_output).
LossGradient squared_error(const Model& m, const std::vector<T32>& y, std::span<const float> target, const T32& scale) {
  LossGradient r;
  r.grad.resize(y.size());
  std::vector<T32> diff(y.size()), sq(y.size());
  for (std::size_t i = 0; i < diff.size(); ++i) diff[i] = y[i] - T32(target[i]), sq[i] = diff[i] * diff[i];
  const double n = m.reduction == Reduction::mean ? static_cast<double>(diff.size()) : 1.0;
  r.loss = scale * (total(sq) / T32(n));
  const T32 norm(2.0 / n);  // mse_loss_backward: norm * (input - target) * grad_output
  for (std::size_t i = 0; i < diff.size(); ++i) r.grad[i] = norm * diff[i] * scale;
  return r;
}

LossGradient bce_with_logits(const Model& m, const std::vector<T32>& x, std::span<const float> target) {
  LossGradient r;
  r.grad.resize(x.size());
  std::vector<T32> per(x.size());
  const T32 one(1), zero(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T32 t(target[i]);
    const T32 mv = max(-x[i], zero);
    const T32 v1 = (one - t) * x[i] + mv + log(exp(-mv) + exp(-x[i] - mv));
    const T32 log_sigmoid = min(x[i], zero) - log1p(exp(-abs(x[i])));
    per[i] = either(v1, (one - t) * x[i] - log_sigmoid);
    r.grad[i] = (one / (one + exp(-x[i])) - t) * one;
  }
  const T32 n(m.reduction == Reduction::mean ? static_cast<double>(x.size()) : 1.0);
  r.loss = total(per) / n;
  if (m.reduction == Reduction::mean)
    for (T32& g : r.grad) g = g / n;
  return r;
}

}  // namespace loss_detail

LossGradient loss_gradient(const Model& m, const std::vector<T32>& y, std::span<const float> target, std::size_t batch) {
  switch (m.loss) {
    case LossKind::cross_entropy: return loss_detail::cross_entropy(m, y, target, batch);
    case LossKind::mse: return loss_detail::squared_error(m, y, target, T32(1));
    case LossKind::half_squared_error: return loss_detail::squared_error(m, y, target, T32(0.5));
    case LossKind::bce_with_logits: return loss_detail::bce_with_logits(m, y, target);
  }
  return {};
}

}  // namespace mlp_audit
