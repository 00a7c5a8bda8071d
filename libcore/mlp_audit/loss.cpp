// ATen's loss kernels, operation for operation (torch 1.13 and 2.x; where they spell a formula
// differently both are covered by `either`):
//   cross_entropy      log_softmax as (x - max) - log(sum exp) or x - (max + log(sum exp)), then
//                      nll_loss, with class weights and label smoothing (below); backward
//                      log_softmax_backward g - exp(out) * sum(g)
//   mse                (y - t)^2 summed, / numel for mean; backward (2 / n) (y - t) g
//   half_squared_error bp's own nn.Module (pytorch_mlp.py): 0.5 * mse_loss(y, t, reduction), i.e.
//                      sum: 1/2 sum (y - t)^2; mean: 1/2 sum (y - t)^2 / (batch * classes)
//   bce_with_logits    (1 - t) x + m + log(exp(-m) + exp(-x - m)), m = max(-x, 0) (torch 1.x), or
//                      (1 - t) x - log_sigmoid(x) with log_sigmoid = min(x, 0) - log1p(exp(-|x|))
//                      (torch 2.x); backward (sigmoid(x) - t) g, / numel for mean. With pos_weight p
//                      (per output): the log term times w = 1 + (p - 1) t, i.e. torch's documented
//                      -[p t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))]; backward
//                      ((p t + 1 - t) sigmoid(x) - p t) g
// CPU mean is sum then division by the count (at::mean_out), so the bounds divide.
#include "mlp_audit/loss.hpp"

#include "mlp_audit/sums.hpp"

namespace mlp_audit {
namespace loss_detail {  // named: the unity build shares one anonymous namespace

// With class weights w and label smoothing e over C classes (torch's cross_entropy for class
// indices, checked against torch): L = (1 - e) nll + (e / C) S with nll = sum_i w[t_i] (-out[i, t_i])
// and S = sum_i sum_j w_j (-out[i, j]), both divided for mean by W = sum_i w[t_i] (the batch size
// without weights). The gradient of out is the sum of both parts; log_softmax_backward follows.
// A sample whose target is the ignore_index is left out of both sums, of W, and of the gradient
// (nll_loss skips it; the smoothing term is masked to 0 before its sum): its row of the
// gradient is exactly 0.
LossGradient cross_entropy(const Model& m, const std::vector<T32>& y, std::span<const float> target, std::size_t batch) {
  const std::size_t c = m.layers.back().out;
  const bool weighted = !m.class_weight.empty(), smoothing = m.label_smoothing != 0;
  std::vector<T32> w(c, T32(1));
  if (weighted)
    for (std::size_t j = 0; j < c; ++j) w[j] = T32(m.class_weight[j]);
  LossGradient r;
  r.grad.resize(batch * c);
  std::vector<T32> shifted(batch * c), e(batch * c), out(batch * c), picked(batch, T32(0)), row_max(batch), wt(batch, T32(0));
  std::vector<char> kept(batch, 1);
  std::size_t counted = batch;
  if (m.ignore_index) {
    for (std::size_t i = 0; i < batch; ++i) {
      if (target[i] == static_cast<float>(*m.ignore_index)) kept[i] = 0, --counted;
    }
  }
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
    if (!kept[i]) continue;
    const auto t = static_cast<std::size_t>(target[i]);
    wt[i] = w[t];
    picked[i] = weighted ? -(w[t] * out[i * c + t]) : -out[i * c + t];
  }
  const bool mean = m.reduction == Reduction::mean;
  const T32 denom = !mean ? T32(1) : weighted ? total(wt) : T32(static_cast<double>(counted));
  const T32 nll = total(picked) / denom;
  const T32 keep(1 - m.label_smoothing), spread(m.label_smoothing / static_cast<double>(c));
  std::vector<T32> g(batch * c, T32(0));
  const T32 nll_grad = (smoothing ? keep : T32(1)) / denom;  // nll_loss_backward: -w[t] * grad / total_weight
  for (std::size_t i = 0; i < batch; ++i) {
    if (!kept[i]) continue;
    const auto t = static_cast<std::size_t>(target[i]);
    g[i * c + t] = weighted ? -(w[t] * nll_grad) : -nll_grad;
  }
  r.loss = nll;
  if (smoothing) {
    std::vector<T32> weighted_out(batch * c);
    for (std::size_t k = 0; k < weighted_out.size(); ++k) {
      weighted_out[k] = !kept[k / c] ? T32(0) : weighted ? out[k] * w[k % c] : out[k];
    }
    std::vector<T32> smooth = row_sums(weighted_out, batch, c);
    for (T32& s : smooth) s = -s;
    r.loss = keep * nll + (total(smooth) / denom) * spread;
    const T32 smooth_grad = spread / denom;
    for (std::size_t k = 0; k < g.size(); ++k) {
      if (kept[k / c]) g[k] = g[k] + -(weighted ? smooth_grad * w[k % c] : smooth_grad);
    }
  }
  const std::vector<T32> gsum = row_sums(g, batch, c);  // log_softmax_backward: g - exp(out) * sum(g)
  for (std::size_t i = 0; i < batch; ++i)
    for (std::size_t j = 0; j < c; ++j) r.grad[i * c + j] = g[i * c + j] - exp(out[i * c + j]) * gsum[i];
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
  const std::size_t c = m.layers.back().out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T32 t(target[i]);
    const T32 mv = max(-x[i], zero);
    const T32 log_sigmoid = min(x[i], zero) - log1p(exp(-abs(x[i])));
    const T32 sigmoid = one / (one + exp(-x[i]));
    if (m.pos_weight.empty()) {
      const T32 v1 = (one - t) * x[i] + mv + log(exp(-mv) + exp(-x[i] - mv));
      per[i] = either(v1, (one - t) * x[i] - log_sigmoid);
      r.grad[i] = (sigmoid - t) * one;
      continue;
    }
    const T32 p(m.pos_weight[i % c]);
    const T32 w = (p - one) * t + one, pt = p * t;
    per[i] = either((one - t) * x[i] + w * (log(exp(-mv) + exp(-x[i] - mv)) + mv), (one - t) * x[i] - w * log_sigmoid);
    r.grad[i] = ((pt + one - t) * sigmoid - pt) * one;
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
