#pragma once
// OptimizerKernel: the seam through which nltrain's outer optimizer (global-norm clip and AdamW,
// adamw.hpp) runs on another device (libgpu's CPU or CUDA launcher), as SwaKernel is for the
// Opaque(SWA) block. With none installed (the default) nothing changes. A BasicFrequencyAwareAdamW
// <float> that steps while one is installed hands its moments m and v to it (adopt) and from then
// on they live in the device's memory, across steps; they come back to the host only when the
// optimizer's state is read (state(), take_state(): checkpoints, receipts) or the device goes.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "nl/adamw_coefficients.hpp"

namespace nl {

// One contiguous range [begin, end) of the flat parameter vector (MagParams::to_flat order) that
// a step updates, with its group's coefficients (the group's own bias-correction count).
struct AdamWRange {
  std::size_t begin = 0, end = 0;
  AdamWCoefficients k;
};

// The moments of one optimizer, resident on a device, flat in MagParams::to_flat order. Calls may
// throw std::runtime_error when the device fails (libgpu's GpuError).
class ResidentAdamW {
 public:
  virtual ~ResidentAdamW() = default;
  // The step's gradient, flat (as many values as the moments); kept on the device for the calls
  // below until the next load.
  virtual void load_gradient(std::span<const float> g) = 0;
  // The loaded gradient's sum of squares, each square and sum in double, in the device's fixed
  // order (the same for any thread count; not the host's sequential order beyond its first
  // partials: see libgpu/gpu/bodies/adamw.hpp for the order and the bound).
  [[nodiscard]] virtual double sum_of_squares() = 0;
  // AdamW on `ranges` of theta (flat, all parameters; updated in place) with the loaded gradient,
  // each element first multiplied by `scale` in float when there is one (the clip), as
  // clip_global_norm and update_range do on the host, bit for bit.
  virtual void update(std::span<float> theta, std::span<const AdamWRange> ranges, std::optional<float> scale) = 0;
  // The moments, back on the host (m and v as many values as adopted).
  virtual void download(std::span<float> m, std::span<float> v) const = 0;
};

class OptimizerKernel {
 public:
  virtual ~OptimizerKernel() = default;
  [[nodiscard]] virtual std::string_view device() const = 0;
  // Moments m and v (flat, the same size) copied to the device.
  [[nodiscard]] virtual std::unique_ptr<ResidentAdamW> adopt(std::span<const float> m, std::span<const float> v) const = 0;
};

// Installs `kernel` (replacing the previous one, which stays alive for optimizers whose moments
// still live on it: installed kernels live until exit). Thread-safe.
void install_optimizer_kernel(std::unique_ptr<OptimizerKernel> kernel);
// Back to the host's clip_global_norm and update_range.
void uninstall_optimizer_kernel();
// The installed kernel, or null.
[[nodiscard]] const OptimizerKernel* installed_optimizer_kernel();

}  // namespace nl
