#pragma once
// The output head and its softmax cross-entropy loss on a backend: the products through
// Backend::gemm (OpenBLAS on the CPU launcher, cuBLAS on CUDA), the softmax, the rows' losses,
// their fixed-order sum and the logits' adjoint in bodies/softmax_ce.hpp. The contract of nl's
// head_loss_forward / head_loss_backward; targets as nl::encode_head_targets writes them.
// Residency: Z, W_o and U_emb are uploaded by each call (forward and backward), as SWA's are.
#include <memory>
#include <span>
#include <vector>

#include "gpu/backend.hpp"
#include "nl/head_kernel.hpp"
#include "nl/head_loss.hpp"

namespace gpu {

[[nodiscard]] nl::HeadForward head_loss_forward(Backend& b, const nl::HeadShape& shape, std::span<const float> z,
                                                std::span<const float> w_o, std::span<const float> u_emb,
                                                std::span<const float> targets);

struct HeadGrads {
  std::vector<float> z, w_o, u_emb;  // s x d, d x d, d x vocab
};
[[nodiscard]] HeadGrads head_loss_backward(Backend& b, const nl::HeadShape& shape, std::span<const float> z,
                                           std::span<const float> w_o, std::span<const float> u_emb,
                                           std::span<const float> pj, std::span<const float> probs,
                                           std::span<const float> targets, float g);

// nl's HeadKernel seam served by the two above on `backend` (which must outlive it).
[[nodiscard]] std::unique_ptr<nl::HeadKernel> make_head_kernel(Backend& backend);

}  // namespace gpu
