// The Opaque(SWA) block on a backend: nl::SwaKernel over swa_forward / swa_backward.
#include <algorithm>

#include "gpu/swa_kernels.hpp"

namespace gpu {
namespace {

class BackendSwaKernel final : public nl::SwaKernel {
 public:
  explicit BackendSwaKernel(Backend& b) : b_(b) {}
  [[nodiscard]] std::string_view device() const override { return b_.name(); }
  [[nodiscard]] nl::SwaForward<float> forward(const nl::SwaShape& shape, std::span<const float> q,
                                              std::span<const float> k, std::span<const float> v) const override {
    return swa_forward(b_, shape, q, k, v);
  }
  void backward(const nl::SwaShape& shape, std::span<const float> q, std::span<const float> k,
                std::span<const float> v, std::span<const float> p, std::span<const float> ga, std::span<float> gq,
                std::span<float> gk, std::span<float> gv) const override {
    const SwaGrads g = swa_backward(b_, shape, q, k, v, p, ga);
    // The seam adds (gradients accumulate on the tape); the kernels write fresh buffers.
    auto add = [](std::span<float> into, const std::vector<float>& from) {
      std::transform(into.begin(), into.end(), from.begin(), into.begin(), [](float a, float b) { return a + b; });
    };
    add(gq, g.q), add(gk, g.k), add(gv, g.v);
  }

 private:
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::SwaKernel> make_swa_kernel(Backend& backend) { return std::make_unique<BackendSwaKernel>(backend); }

}  // namespace gpu
