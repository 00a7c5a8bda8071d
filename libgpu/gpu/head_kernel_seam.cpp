// The Opaque(HeadLoss) block on a backend: nl::HeadKernel over head_loss_forward / _backward.
#include <algorithm>

#include "gpu/head_loss_kernels.hpp"

namespace gpu {
namespace {

class BackendHeadKernel final : public nl::HeadKernel {
 public:
  explicit BackendHeadKernel(Backend& b) : b_(b) {}
  [[nodiscard]] std::string_view device() const override { return b_.name(); }
  [[nodiscard]] nl::HeadForward forward(const nl::HeadShape& shape, std::span<const float> z,
                                        std::span<const float> w_o, std::span<const float> u_emb,
                                        std::span<const float> targets) const override {
    return head_loss_forward(b_, shape, z, w_o, u_emb, targets);
  }
  void backward(const nl::HeadShape& shape, std::span<const float> z, std::span<const float> w_o,
                std::span<const float> u_emb, std::span<const float> pj, std::span<const float> probs,
                std::span<const float> targets, float g, std::span<float> gz, std::span<float> gw_o,
                std::span<float> gu) const override {
    const HeadGrads r = head_loss_backward(b_, shape, z, w_o, u_emb, pj, probs, targets, g);
    // The seam adds (gradients accumulate on the tape); the kernels write fresh buffers.
    auto add = [](std::span<float> into, const std::vector<float>& from) {
      std::transform(into.begin(), into.end(), from.begin(), into.begin(), [](float a, float b) { return a + b; });
    };
    add(gz, r.z), add(gw_o, r.w_o), add(gu, r.u_emb);
  }

 private:
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::HeadKernel> make_head_kernel(Backend& backend) { return std::make_unique<BackendHeadKernel>(backend); }

}  // namespace gpu
