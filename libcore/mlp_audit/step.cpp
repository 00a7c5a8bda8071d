// The formulas are torch's CPU kernels' (ATen), operation for operation, so the Tracked bound
// covers their fp32 rounding: addmm with the bias as C, LayerNorm (layer_norm.cpp), the
// activations of activation.cpp (of jax_activation.cpp in a jax receipt), Dropout from its
// recorded mask, the losses of loss.cpp, the single-tensor SGD and Adam(W) loops of torch.optim.
// A jax receipt's LayerNorm and Dropout are JAX's: jax_mlp.LayerNorm (layer_norm_jax.cpp) and
// stax.Dropout (keep_forward).
#include "mlp_audit/step.hpp"

#include <cmath>

#include "mlp_audit/activation.hpp"
#include "mlp_audit/jax_activation.hpp"
#include "mlp_audit/layer_norm.hpp"
#include "mlp_audit/layer_norm_jax.hpp"
#include "mlp_audit/loss.hpp"
#include "mlp_audit/sums.hpp"
#include "tape/tracked_gemm.hpp"

namespace mlp_audit {
namespace {

// An fp32 value is its own fp32 evaluation: error 0 (what T32(float) computes, without the
// round trip through float per entry).
std::vector<T32> exact(std::span<const float> v) {
  std::vector<T32> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = T32::exact(static_cast<double>(v[i]), 0);
  return out;
}

// stax.Dropout(rate): kept entries are x / fl32(rate) (XLA may multiply by the reciprocal),
// dropped ones 0; its backward is the same map of the upstream gradient. out may be in.
void keep_forward(const std::vector<float>& mask, double rate, const std::vector<T32>& in, std::vector<T32>& out) {
  const T32 keep = T32::exact(static_cast<double>(static_cast<float>(rate)), 0);  // a Python float: an fp32 constant
  out.resize(mask.size());
  for (std::size_t i = 0; i < mask.size(); ++i) out[i] = mask[i] != 0 ? divide_by_constant(in[i], keep) : T32(0);
}

}  // namespace

Backprop forward_backward(const Model& m, const Params& params, std::span<const float> x, std::span<const float> target,
                          std::size_t batch, const std::vector<std::vector<float>>& masks) {
  const std::size_t depth = m.layers.size();
  const bool jax = is_jax(m.optimizer.kind);  // a jax receipt: JAX's activations (jax_activation.cpp)
  // in[l]: layer l's input; pre: the Linear's output Z; act: the activation's input (Z, or its
  // LayerNorm); out: the activation's output; noise: Dropout's mask / (1 - p) (empty: no dropout)
  std::vector<std::vector<T32>> in(depth + 1), pre(depth), act(depth), out(depth), noise(depth);
  std::vector<NormForward> norm(depth);
  std::vector<JaxNormForward> jax_norm(depth);
  std::vector<const std::vector<float>*> mask_of(depth);  // stax.Dropout's, by layer
  in[0] = exact(x);
  std::vector<std::vector<T32>> w(depth), b(depth), gamma(depth), beta(depth);
  std::vector<std::size_t> first(depth);  // layer l's first parameter (its weight)
  std::size_t dropped = 0;
  for (std::size_t l = 0, p = 0; l < depth; ++l) {
    const Layer& L = m.layers[l];
    first[l] = p;
    w[l] = exact(params[p++]), b[l] = exact(params[p++]);
    if (L.norm && L.norm->affine) gamma[l] = exact(params[p++]), beta[l] = exact(params[p++]);
    pre[l].resize(batch * L.out);
    for (std::size_t i = 0; i < batch; ++i)
      for (std::size_t j = 0; j < L.out; ++j) pre[l][i * L.out + j] = b[l][j];
    tape::tracked_gemm(false, true, batch, L.out, L.in, in[l].data(), w[l].data(), true, pre[l].data());
    if (L.norm && L.norm->form == NormForm::jax_two_pass) {
      jax_norm[l] = layer_norm_jax(pre[l], batch, L.out, L.norm->eps, gamma[l], beta[l]);
      act[l] = jax_norm[l].y;
    } else if (L.norm) {
      norm[l] = layer_norm(pre[l], batch, L.out, L.norm->eps, gamma[l], beta[l]);
      act[l] = norm[l].y;
    } else {
      act[l] = pre[l];
    }
    out[l].resize(pre[l].size());
    for (std::size_t i = 0; i < pre[l].size(); ++i) out[l][i] = jax ? jax_activate(L, act[l][i]) : activate(L, act[l][i]);
    in[l + 1] = out[l];
    if (L.dropout != 0 && L.dropout_keeps) {  // stax.Dropout: where(keep, x / rate, 0)
      mask_of[l] = &masks[dropped++];
      keep_forward(*mask_of[l], L.dropout, out[l], in[l + 1]);
    } else if (L.dropout != 0) {  // ATen's _dropout: noise = bernoulli(1 - p) / (1 - p); input * noise
      const std::vector<float>& mask = masks[dropped++];
      const T32 scale = T32(1) / T32(1 - L.dropout);
      noise[l].resize(mask.size());
      for (std::size_t i = 0; i < mask.size(); ++i) noise[l][i] = mask[i] != 0 ? scale : T32(0);
      for (std::size_t i = 0; i < mask.size(); ++i) in[l + 1][i] = out[l][i] * noise[l][i];
    }
  }
  Backprop r;
  LossGradient lg = loss_gradient(m, in[depth], target, batch);
  r.loss = lg.loss;
  std::vector<T32> grad = std::move(lg.grad);
  r.gradients.resize(parameter_count(m));
  for (std::size_t l = depth; l-- > 0;) {
    const Layer& L = m.layers[l];
    if (L.dropout != 0 && L.dropout_keeps) {  // where's and div's transposes: where(keep, grad, 0) / rate
      keep_forward(*mask_of[l], L.dropout, grad, grad);
    } else if (L.dropout != 0) {  // mul's backward: grad * noise
      for (std::size_t i = 0; i < grad.size(); ++i) grad[i] = grad[i] * noise[l][i];
    }
    std::vector<T32> dz(grad.size());
    for (std::size_t i = 0; i < dz.size(); ++i)
      dz[i] = jax ? jax_derive(L, act[l][i], out[l][i], grad[i], r.kinks) : derive(L, act[l][i], out[l][i], grad[i], r.kinks);
    if (L.norm && L.norm->form == NormForm::jax_two_pass) {
      JaxNormBackward nb = layer_norm_jax_backward(dz, jax_norm[l], batch, L.out, gamma[l]);
      if (L.norm->affine) r.gradients[first[l] + 2] = std::move(nb.dgamma), r.gradients[first[l] + 3] = std::move(nb.dbeta);
      dz = std::move(nb.dx);
    } else if (L.norm) {
      NormBackward nb = layer_norm_backward(dz, pre[l], norm[l], batch, L.out, gamma[l]);
      if (L.norm->affine) r.gradients[first[l] + 2] = std::move(nb.dgamma), r.gradients[first[l] + 3] = std::move(nb.dbeta);
      dz = std::move(nb.dx);
    }
    std::vector<T32>& dw = r.gradients[first[l]];
    dw.resize(L.out * L.in);
    tape::tracked_gemm(true, false, L.out, L.in, batch, dz.data(), in[l].data(), false, dw.data());
    std::vector<T32> dzt(dz.size());  // db: the batch sum of dz, as a row sum of its transpose
    for (std::size_t i = 0; i < batch; ++i)
      for (std::size_t j = 0; j < L.out; ++j) dzt[j * batch + i] = dz[i * L.out + j];
    r.gradients[first[l] + 1] = row_sums(dzt, L.out, batch);
    if (l > 0) {
      grad.assign(batch * L.in, T32(0));
      tape::tracked_gemm(false, false, batch, L.in, L.out, dz.data(), w[l].data(), false, grad.data());
    }
  }
  return r;
}

std::vector<std::vector<T32>> exact_all(const Params& values) {
  std::vector<std::vector<T32>> out;
  for (const std::vector<float>& v : values) out.push_back(exact(v));
  return out;
}

// Each tensor's 2-norm (a dot product, any order), then the 2-norm of those norms.
Clip clip_grad_norm(const Params& gradients, double max_norm) {
  Clip c;
  c.gradients = exact_all(gradients);
  std::vector<T32> squares;
  for (const std::vector<T32>& g : c.gradients) {
    T32 dot;
    tape::tracked_gemm(false, false, 1, 1, g.size(), g.data(), g.data(), false, &dot);
    const T32 norm = sqrt(dot);
    squares.push_back(norm * norm);
  }
  c.total_norm = sqrt(total(squares));
  const T32 coef = T32(max_norm) / (c.total_norm + T32(1e-6));
  const T32 clamped = coef.v - coef.e > 1 ? T32(1) : min(coef, T32(1));  // surely above 1: exactly 1 in fp32 too
  for (std::vector<T32>& g : c.gradients)
    for (T32& x : g) x = x * clamped;
  return c;
}

Update optimizer_update(const Optimizer& o, double lr, std::uint64_t step, const Params& params,
                        const std::vector<std::vector<T32>>& gradients, const std::vector<Params>& state) {
  Update u;
  u.params.resize(params.size());
  u.state.assign(state.size(), std::vector<std::vector<T32>>(params.size()));
  for (std::size_t p = 0; p < params.size(); ++p) {
    const std::size_t n = params[p].size();
    std::vector<T32>& out = u.params[p];
    out = exact(params[p]);
    const std::vector<T32>& g0 = gradients[p];
    if (o.kind == OptimizerKind::sgd) {
      std::vector<T32> buf;
      if (o.momentum != 0) buf = exact(state[0][p]);
      for (std::size_t i = 0; i < n; ++i) {
        T32 d = g0[i];
        if (o.weight_decay != 0) d = d + T32(o.weight_decay) * out[i];
        if (o.momentum != 0) {
          buf[i] = step == 1 ? d : buf[i] * T32(o.momentum) + T32(1 - o.dampening) * d;
          d = o.nesterov ? d + T32(o.momentum) * buf[i] : buf[i];
        }
        out[i] = out[i] + T32(-lr) * d;
      }
      if (o.momentum != 0) u.state[0][p] = std::move(buf);
      continue;
    }
    std::vector<T32> m1 = exact(state[0][p]), m2 = exact(state[1][p]), mx;
    if (o.amsgrad) mx = exact(state[2][p]);
    const double s = static_cast<double>(step);
    const double bc1 = 1 - std::pow(o.beta1, s), bc2_sqrt = std::sqrt(1 - std::pow(o.beta2, s));
    const T32 step_size(-(lr / bc1)), b2(o.beta2), one_b2(1 - o.beta2), w1(1 - o.beta1), eps(o.eps), root(bc2_sqrt);
    // Each entry's operations in torch's order, one operation over all entries at a time: a
    // short loop body, whose entries the CPU overlaps (the whole formula for one entry is a
    // chain of a few hundred dependent instructions). The same operations, the same bits.
    const T32 b1(o.beta1), decay(1 - lr * o.weight_decay), wd(o.weight_decay);
    std::vector<T32> g(g0.begin(), g0.end());
    if (o.kind == OptimizerKind::adamw) {
      for (std::size_t i = 0; i < n; ++i) out[i] = out[i] * decay;
    } else if (o.weight_decay != 0) {
      for (std::size_t i = 0; i < n; ++i) g[i] = g[i] + wd * out[i];
    }
    // torch >= 2.0: exp_avg.lerp_(g, 1 - beta1) (ATen's formula by the side of 1/2 the weight
    // lies on); torch 1.x: exp_avg.mul_(beta1).add_(g, alpha=1 - beta1). Either is covered.
    if (1 - o.beta1 < 0.5) {
      for (std::size_t i = 0; i < n; ++i) m1[i] = either(m1[i] + w1 * (g[i] - m1[i]), m1[i] * b1 + w1 * g[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i) m1[i] = either(g[i] - (g[i] - m1[i]) * b1, m1[i] * b1 + w1 * g[i]);
    }
    for (std::size_t i = 0; i < n; ++i) m2[i] = m2[i] * b2 + one_b2 * g[i] * g[i];
    if (o.amsgrad)
      for (std::size_t i = 0; i < n; ++i) mx[i] = max(mx[i], m2[i]);
    const std::vector<T32>& second = o.amsgrad ? mx : m2;
    std::vector<T32>& denom = g;  // g is used up
    for (std::size_t i = 0; i < n; ++i) denom[i] = sqrt(second[i]);
    for (std::size_t i = 0; i < n; ++i) denom[i] = denom[i] / root + eps;
    for (std::size_t i = 0; i < n; ++i) out[i] = out[i] + step_size * (m1[i] / denom[i]);
    u.state[0][p] = std::move(m1), u.state[1][p] = std::move(m2);
    if (o.amsgrad) u.state[2][p] = std::move(mx);
  }
  return u;
}

}  // namespace mlp_audit
