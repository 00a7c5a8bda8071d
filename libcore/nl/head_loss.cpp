#include "nl/head_loss.hpp"

#include <array>
#include <optional>
#include <string>

#include "nl/blas.hpp"
#include "nl/head_kernel.hpp"
#include "tape/finite.hpp"
#include "tape/opaque/record_opaque.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/tape_error.hpp"

namespace nl {
namespace {

// The message, op name and shapes the tape's Recorder gives a non-finite result, so that a run
// that diverges reports what it reported when the head was three tape ops.
void require_finite(std::span<const float> v, const char* op, std::vector<tape::Shape> shapes) {
  if (!tape::all_finite(v)) [[unlikely]] throw tape::NonFiniteError(op, "result contains NaN or Inf", std::move(shapes));
}

}  // namespace

HeadForward head_loss_forward(const HeadShape& sh, std::span<const float> z, std::span<const float> w_o,
                              std::span<const float> u_emb, std::span<const std::size_t> targets) {
  const std::size_t s = sh.s, d = sh.d, V = sh.vocab;
  HeadForward f{0.0f, std::vector<float>(s * d), std::vector<float>(s * V)};
  tape::ops::matmul_forward<float>(z, w_o, f.pj, s, d, d, true);
  require_finite(f.pj, "MatmulTransposeB", {tape::Shape{s, d}, tape::Shape{d, d}});
  std::vector<float> logits(s * V);
  tape::ops::matmul_forward<float>(f.pj, u_emb, logits, s, d, V, false);
  require_finite(logits, "Matmul", {tape::Shape{s, d}, tape::Shape{d, V}});
  f.loss = tape::ops::cross_entropy_forward<float>(logits, targets, V, f.probs);
  require_finite(std::span<const float>(&f.loss, 1), "CrossEntropy", {tape::Shape{s, V}});
  return f;
}

void head_loss_backward(const HeadShape& sh, std::span<const float> z, std::span<const float> w_o,
                        std::span<const float> u_emb, std::span<const float> pj, std::span<const float> probs,
                        std::span<const float> targets, float g, std::span<float> gz, std::span<float> gw_o,
                        std::span<float> gu) {
  const std::size_t s = sh.s, d = sh.d, V = sh.vocab;
  const std::size_t n_valid = count_valid_targets(targets, V);
  if (n_valid == 0) return;  // the loss is the constant 0 (nltrain-math §9)
  // CrossEntropy's VJP: g_logits = c p - c onehot, c = g / n_valid, zero for ignored rows.
  const float c = g / static_cast<float>(n_valid);
  std::vector<float> g_logits(s * V, 0.0f);
  for (std::size_t r = 0; r < s; ++r) {
    const auto t = static_cast<std::size_t>(targets[r]);
    if (t >= V) continue;
    for (std::size_t j = 0; j < V; ++j) g_logits[r * V + j] += c * probs[r * V + j];
    g_logits[r * V + t] -= c;
  }
  // Matmul's VJP (logits = Pj U_emb), then MatmulTransposeB's (Pj = Z W_o^T): the tape's calls.
  std::vector<float> g_pj(s * d, 0.0f);
  blas::gemm(false, true, s, d, V, g_logits.data(), u_emb.data(), 1.0f, g_pj.data());
  blas::gemm(true, false, d, V, s, pj.data(), g_logits.data(), 1.0f, gu.data());
  blas::gemm(false, false, s, d, d, g_pj.data(), w_o.data(), 1.0f, gz.data());
  blas::gemm(true, false, d, d, s, g_pj.data(), z.data(), 1.0f, gw_o.data());
}

std::vector<float> encode_head_targets(std::span<const std::size_t> targets, std::size_t vocab) {
  std::vector<float> out(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) out[i] = static_cast<float>(targets[i] < vocab ? targets[i] : vocab);
  return out;
}

std::size_t count_valid_targets(std::span<const float> targets, std::size_t vocab) {
  std::size_t n = 0;
  for (float t : targets) n += static_cast<std::size_t>(t) < vocab ? 1 : 0;
  return n;
}

std::vector<float> encode_head_shape(const HeadShape& sh) {
  return {static_cast<float>(sh.s), static_cast<float>(sh.d), static_cast<float>(sh.vocab)};
}

HeadShape decode_head_shape(std::span<const float> v) {
  return {static_cast<std::size_t>(v[0]), static_cast<std::size_t>(v[1]), static_cast<std::size_t>(v[2])};
}

tape::Tensor record_head_loss(const tape::opaque::OpaqueRegistry& registry, const tape::Tensor& z,
                              const tape::Tensor& w_o, const tape::Tensor& u_emb,
                              std::span<const std::size_t> targets) {
  const char* op = "Opaque(HeadLoss)";
  const tape::Shape &zs = z.shape(), &ws = w_o.shape(), &us = u_emb.shape();
  if (zs.rank() != 2 || ws.rank() != 2 || us.rank() != 2 || ws.dim(0) != zs.dim(1) || ws.dim(1) != zs.dim(1) ||
      us.dim(0) != zs.dim(1)) {
    throw tape::TapeError(op, "want Z [s, d], W_o [d, d], U_emb [d, vocab]", {zs, ws, us});
  }
  const HeadShape sh{zs.dim(0), zs.dim(1), us.dim(1)};
  if (sh.vocab == 0 || sh.vocab >= kMaxHeadVocab) {
    throw tape::TapeError(op, "vocab must be in 1.." + std::to_string(kMaxHeadVocab - 1) + " (targets are saved as floats)", {us});
  }
  if (targets.size() != sh.s) {
    throw tape::TapeError(op, std::to_string(targets.size()) + " targets for " + std::to_string(sh.s) + " rows", {zs});
  }
  const std::vector<float> saved_targets = encode_head_targets(targets, sh.vocab);
  // An installed HeadKernel (libgpu) runs the block; its handle, saved last, routes the VJP to it.
  const std::optional<InstalledHead> installed = installed_head_kernel();
  HeadForward f;
  if (installed) {
    f = installed->kernel->forward(sh, z.data(), w_o.data(), u_emb.data(), saved_targets);
    require_finite(f.pj, "MatmulTransposeB", {zs, ws});
    require_finite(f.probs, op, {zs, ws, us});
  } else {
    f = head_loss_forward(sh, z.data(), w_o.data(), u_emb.data(), targets);
  }
  const std::vector<float> header = encode_head_shape(sh);
  using tape::opaque::OpaqueValue;
  const std::array<tape::Tensor, 3> inputs{z, w_o, u_emb};
  const std::array<OpaqueValue, 1> outputs{OpaqueValue{std::span<const float>(&f.loss, 1), tape::Shape{}}};
  std::vector<OpaqueValue> saved{OpaqueValue{header, tape::Shape{header.size()}},
                                 OpaqueValue{z.data(), zs},
                                 OpaqueValue{w_o.data(), ws},
                                 OpaqueValue{u_emb.data(), us},
                                 OpaqueValue{saved_targets, tape::Shape{sh.s}},
                                 OpaqueValue{f.pj, tape::Shape{sh.s, sh.d}},
                                 OpaqueValue{f.probs, tape::Shape{sh.s, sh.vocab}}};
  const std::vector<float> handle = installed ? std::vector<float>{static_cast<float>(installed->handle)}
                                              : std::vector<float>{};
  if (installed) saved.push_back(OpaqueValue{handle, tape::Shape{1}});
  return tape::opaque::record_opaque(registry, tape::opaque::OpaqueKey::head_loss, inputs, outputs, saved).at(0);
}

}  // namespace nl
