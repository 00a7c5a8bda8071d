#pragma once
// The output head and its loss as one opaque block (nltrain-math §9): Pj = Z W_o^T, logits =
// Pj U_emb, loss = the mean over valid targets of -log softmax(logits[t])[targets[t]]. One block,
// not two Matmuls and a CrossEntropy, so that an installed HeadKernel (head_kernel.hpp, libgpu)
// can run the products and the softmax on its device. With none installed the block computes
// what those three tape ops computed, with the same calls in the same order: the same bits.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/mag_config.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/tensor.hpp"

namespace nl {

struct HeadShape {
  std::size_t s = 0;      // rows (tokens)
  std::size_t d = 0;      // model width
  std::size_t vocab = 0;  // columns of the logits
};

// Targets travel with the block as floats (saved values are floats): an id is exact below 2^24,
// and every id >= vocab (ignored, nltrain-math §9) is saved as vocab itself.
inline constexpr std::size_t kMaxHeadVocab = std::size_t{1} << 24;
static_assert(kMaxVocab < kMaxHeadVocab, "a config's vocab must keep its ids exact as saved floats");

struct HeadForward {
  float loss = 0;
  std::vector<float> pj;     // s x d: Z W_o^T
  std::vector<float> probs;  // s x vocab: the rows' softmax
};

// nl's own forward: tape::ops::matmul_forward twice and cross_entropy_forward, each result checked
// as the tape op checks it (NonFiniteError naming MatmulTransposeB, Matmul or CrossEntropy).
[[nodiscard]] HeadForward head_loss_forward(const HeadShape& shape, std::span<const float> z,
                                            std::span<const float> w_o, std::span<const float> u_emb,
                                            std::span<const std::size_t> targets);

// Adds the adjoints of Z, W_o and U_emb for an upstream gradient g of the loss into gz, gw_o, gu
// (the CrossEntropy, Matmul and MatmulTransposeB VJPs' arithmetic). targets: encode_head_targets.
void head_loss_backward(const HeadShape& shape, std::span<const float> z, std::span<const float> w_o,
                        std::span<const float> u_emb, std::span<const float> pj, std::span<const float> probs,
                        std::span<const float> targets, float g, std::span<float> gz, std::span<float> gw_o,
                        std::span<float> gu);

// Targets as saved floats (ignored ids as vocab), and how many are valid.
[[nodiscard]] std::vector<float> encode_head_targets(std::span<const std::size_t> targets, std::size_t vocab);
[[nodiscard]] std::size_t count_valid_targets(std::span<const float> targets, std::size_t vocab);

[[nodiscard]] std::vector<float> encode_head_shape(const HeadShape& shape);
[[nodiscard]] HeadShape decode_head_shape(std::span<const float> data);

// Runs the forward (the installed HeadKernel's, else nl's own) and records one Opaque(HeadLoss)
// block with inputs Z [s, d], W_o [d, d], U_emb [d, vocab]; returns the scalar loss. Throws
// tape::TapeError for other shapes, targets.size() != s, or vocab over kMaxHeadVocab.
[[nodiscard]] tape::Tensor record_head_loss(const tape::opaque::OpaqueRegistry& registry, const tape::Tensor& z,
                                            const tape::Tensor& w_o, const tape::Tensor& u_emb,
                                            std::span<const std::size_t> targets);

}  // namespace nl
