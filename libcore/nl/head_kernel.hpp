#pragma once
// HeadKernel: the seam through which the Opaque(HeadLoss) block runs on another device (libgpu's
// CPU or CUDA launcher) instead of nl's head_loss_forward / head_loss_backward, as SwaKernel is
// for SWA. With none installed (the default) nothing changes. record_head_loss() saves the
// installed kernel's handle with the block, so the block's backward runs on the same kernel.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "nl/head_loss.hpp"

namespace nl {

// forward and backward may throw std::runtime_error when the device fails (libgpu's GpuError).
class HeadKernel {
 public:
  virtual ~HeadKernel() = default;
  [[nodiscard]] virtual std::string_view device() const = 0;
  // Shapes are consistent (record_head_loss checks before it calls); targets as
  // encode_head_targets writes them.
  [[nodiscard]] virtual HeadForward forward(const HeadShape& shape, std::span<const float> z,
                                            std::span<const float> w_o, std::span<const float> u_emb,
                                            std::span<const float> targets) const = 0;
  // Adds the adjoints into gz, gw_o, gu (nl::head_loss_backward's contract).
  virtual void backward(const HeadShape& shape, std::span<const float> z, std::span<const float> w_o,
                        std::span<const float> u_emb, std::span<const float> pj, std::span<const float> probs,
                        std::span<const float> targets, float g, std::span<float> gz, std::span<float> gw_o,
                        std::span<float> gu) const = 0;
};

struct InstalledHead {
  const HeadKernel* kernel;
  std::size_t handle;
};

// Installs `kernel` (replacing the previous one, which stays alive for blocks that still refer to
// it: installed kernels live until exit). Thread-safe. Returns the handle.
std::size_t install_head_kernel(std::unique_ptr<HeadKernel> kernel);
// Back to nl's own head_loss_forward / head_loss_backward.
void uninstall_head_kernel();
[[nodiscard]] std::optional<InstalledHead> installed_head_kernel();
[[nodiscard]] const HeadKernel* head_kernel_by_handle(std::size_t handle);

}  // namespace nl
