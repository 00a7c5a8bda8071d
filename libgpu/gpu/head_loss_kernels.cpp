#include "gpu/head_loss_kernels.hpp"

namespace gpu {

nl::HeadForward head_loss_forward(Backend& b, const nl::HeadShape& sh, std::span<const float> z,
                                  std::span<const float> w_o, std::span<const float> u_emb,
                                  std::span<const float> targets) {
  const std::size_t s = sh.s, d = sh.d, V = sh.vocab;
  Buffer bz(b, z), bw(b, w_o), bu(b, u_emb), bt(b, targets), pj(b, s * d), logits(b, s * V), probs(b, s * V);
  // Pj = Z W_o^T, logits = Pj U_emb: the tape's two products, with its operands and shapes.
  b.gemm(GemmArgs{false, true, s, d, d, 1.f, 0.f, bz.get(), bw.get(), pj.get()});
  b.gemm(GemmArgs{false, false, s, V, d, 1.f, 0.f, pj.get(), bu.get(), logits.get()});
  const Buffer64 row_loss(b, s), total(b, 1);
  launch<KernelId::softmax_ce_rows>(b, SoftmaxCeArgs{s, V, logits.get(), bt.get(), probs.get(), row_loss.get()}, s);
  launch<KernelId::reduce_rows_f64>(b, BasicReduceRowsArgs<double>{row_loss.get(), s, 1, total.get()}, 1);
  b.synchronize();
  double sum = 0;
  b.download_f64(&sum, total.get(), 1);
  const std::size_t n_valid = nl::count_valid_targets(targets, V);
  // The mean as the host takes it: the double sum over n_valid, rounded to float once.
  const float loss = n_valid == 0 ? 0.f : static_cast<float>(sum / static_cast<double>(n_valid));
  return {loss, pj.to_host(), probs.to_host()};
}

HeadGrads head_loss_backward(Backend& b, const nl::HeadShape& sh, std::span<const float> z,
                             std::span<const float> w_o, std::span<const float> u_emb, std::span<const float> pj,
                             std::span<const float> probs, std::span<const float> targets, float g) {
  const std::size_t s = sh.s, d = sh.d, V = sh.vocab;
  const std::size_t n_valid = nl::count_valid_targets(targets, V);
  if (n_valid == 0) return {std::vector<float>(s * d), std::vector<float>(d * d), std::vector<float>(d * V)};
  Buffer bz(b, z), bw(b, w_o), bu(b, u_emb), bpj(b, pj), bp(b, probs), bt(b, targets), g_logits(b, s * V),
      g_pj(b, s * d), gz(b, s * d), gw(b, d * d), gu(b, d * V);
  const float c = g / static_cast<float>(n_valid);
  launch<KernelId::softmax_ce_grad>(b, SoftmaxCeGradArgs{s, V, bp.get(), bt.get(), c, g_logits.get()}, s * V);
  // The Matmul and MatmulTransposeB VJPs, each product into a fresh buffer (beta 0).
  b.gemm(GemmArgs{false, true, s, d, V, 1.f, 0.f, g_logits.get(), bu.get(), g_pj.get()});
  b.gemm(GemmArgs{true, false, d, V, s, 1.f, 0.f, bpj.get(), g_logits.get(), gu.get()});
  b.gemm(GemmArgs{false, false, s, d, d, 1.f, 0.f, g_pj.get(), bw.get(), gz.get()});
  b.gemm(GemmArgs{true, false, d, d, s, 1.f, 0.f, g_pj.get(), bz.get(), gw.get()});
  b.synchronize();
  return {gz.to_host(), gw.to_host(), gu.to_host()};
}

}  // namespace gpu
