#pragma once
// SwaKernel: the seam through which the Opaque(SWA) block runs on another device (libgpu's CPU or
// CUDA launcher) instead of nl's own swa_forward / swa_backward, as KernelPair is for a memory
// level. With none installed (the default) nothing changes. record_swa() saves the installed
// kernel's handle with the block, so the block's backward runs on the same kernel.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "nl/swa.hpp"

namespace nl {

// forward and backward may throw std::runtime_error when the device fails (libgpu's GpuError).
class SwaKernel {
 public:
  virtual ~SwaKernel() = default;
  [[nodiscard]] virtual std::string_view device() const = 0;
  // The shape is valid and q, k, v are s x d (record_swa checks before it calls).
  [[nodiscard]] virtual SwaForward<float> forward(const SwaShape& shape, std::span<const float> q,
                                                  std::span<const float> k, std::span<const float> v) const = 0;
  // Adds the adjoints of Q, K, V into gq, gk, gv (nl::swa_backward's contract).
  virtual void backward(const SwaShape& shape, std::span<const float> q, std::span<const float> k,
                        std::span<const float> v, std::span<const float> p, std::span<const float> ga,
                        std::span<float> gq, std::span<float> gk, std::span<float> gv) const = 0;
};

struct InstalledSwa {
  const SwaKernel* kernel;
  std::size_t handle;
};

// Installs `kernel` (replacing the previous one, which stays alive for blocks that still refer to
// it: installed kernels live until exit). Thread-safe. Returns the handle.
std::size_t install_swa_kernel(std::unique_ptr<SwaKernel> kernel);
// Back to nl's own swa_forward / swa_backward.
void uninstall_swa_kernel();
[[nodiscard]] std::optional<InstalledSwa> installed_swa_kernel();
[[nodiscard]] const SwaKernel* swa_kernel_by_handle(std::size_t handle);

}  // namespace nl
