#pragma once
// Frequency-aware AdamW, the outer optimizer (nltrain-math §10, O-9, O-12): global-norm clip over
// all gradients (after error buffers are merged), decoupled weight decay on every tensor, the
// attention group stepping every step and each level's group only when the level is active,
// with its own bias-correction count.
// Templates on the element type T of parameters, gradients and moments: float (nltrain train)
// and double (train --fp64), explicitly instantiated in adamw.cpp; the float names below are
// what they always were.
// With an OptimizerKernel installed (optimizer_kernel.hpp), the float optimizer's clip_and_step
// and step run on that device and its moments stay there between steps; the double one never
// does (libgpu's kernels are fp32).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/worker_pool.hpp"
#include "nl/adamw_coefficients.hpp"
#include "nl/conductor.hpp"
#include "nl/mag_params.hpp"
#include "nl/optimizer_kernel.hpp"

namespace nl {

// lr(n): linear warm-up, then cosine to 0 at total_steps.
[[nodiscard]] double learning_rate(const AdamWConfig& cfg, std::uint64_t step);

// Scales every gradient by clip / N when N = ||all gradients||_2 (accumulated in fp64) > clip;
// returns N.
template <typename T>
[[nodiscard]] double clip_global_norm(MagParams<T>& grads, double clip);
// The factor clip_global_norm multiplies every gradient by when norm > clip, in T.
template <typename T = float>
[[nodiscard]] inline T clip_scale(double clip, double norm) { return static_cast<T>(clip / norm); }

// The optimizer's whole state (moments and step counts), for checkpoints.
template <typename T>
struct BasicAdamWState {
  MagParams<T> m, v;
  std::uint64_t tau = 0;
  std::vector<std::uint64_t> tau_level;
};
using AdamWState = BasicAdamWState<float>;

template <typename T>
class BasicFrequencyAwareAdamW {
 public:
  BasicFrequencyAwareAdamW(const MagConfig& cfg, AdamWConfig opt);
  // A copy holds the moments on the host (brought down from a device where they live there).
  BasicFrequencyAwareAdamW(const BasicFrequencyAwareAdamW& o);
  BasicFrequencyAwareAdamW& operator=(const BasicFrequencyAwareAdamW& o);
  BasicFrequencyAwareAdamW(BasicFrequencyAwareAdamW&&) noexcept = default;
  BasicFrequencyAwareAdamW& operator=(BasicFrequencyAwareAdamW&&) noexcept = default;
  ~BasicFrequencyAwareAdamW() = default;

  // One update with already clipped gradients: the attention group always, level l when active.
  // pool: the element-wise update split over its threads (each element's arithmetic, and so every
  // bit, is the same either way); null: on the calling thread. On a device the pool is not used.
  void step(MagParams<T>& params, const MagParams<T>& grads, const Pulse& pulse, double lr,
            common::WorkerPool* pool = nullptr);
  // clip_global_norm(grads, config().clip) then step(): returns the norm before clipping. On the
  // host grads is scaled in place; on a device it goes up once and is left as given (the device
  // scales its copy), its norm computed there in a fixed order (ResidentAdamW::sum_of_squares).
  [[nodiscard]] double clip_and_step(MagParams<T>& params, MagParams<T>& grads, const Pulse& pulse, double lr,
                                     common::WorkerPool* pool = nullptr);

  [[nodiscard]] std::uint64_t attention_steps() const { return tau_; }
  [[nodiscard]] std::uint64_t level_steps(std::size_t l) const { return tau_level_[l]; }
  [[nodiscard]] const AdamWConfig& config() const { return opt_; }
  // The device the moments live on ("" for the host).
  [[nodiscard]] std::string_view moments_device() const { return resident_ != nullptr ? resident_on_->device() : ""; }
  // Moments brought down from a device where they live there (they stay there too).
  [[nodiscard]] BasicAdamWState<T> state() const;
  [[nodiscard]] BasicAdamWState<T> take_state() &&;
  // `s` must be shaped for the configuration this optimizer was built for (checked by the caller).
  // The moments are on the host again (a later step takes them to an installed device).
  void restore(BasicAdamWState<T> s) {
    m_ = std::move(s.m), v_ = std::move(s.v), tau_ = s.tau, tau_level_ = std::move(s.tau_level);
    resident_.reset(), resident_on_ = nullptr;
  }

 private:
  // The moments' home for this step: the installed kernel (adopting them there, or moving them
  // from another device), or null for the host (bringing them down from a device that went).
  ResidentAdamW* resident();
  void bring_down();  // moments from the device into m_, v_; resident_ dropped
  // The step's ranges (bias-correction counts advanced) on the device, gradient already loaded.
  void step_on(ResidentAdamW& r, MagParams<T>& params, const Pulse& pulse, double lr, std::optional<float> scale);

  AdamWConfig opt_;
  MagConfig cfg_;
  MagParams<T> m_, v_;  // stale while resident_ holds them
  std::uint64_t tau_ = 0;
  std::vector<std::uint64_t> tau_level_;
  std::unique_ptr<ResidentAdamW> resident_;
  const OptimizerKernel* resident_on_ = nullptr;
};
using FrequencyAwareAdamW = BasicFrequencyAwareAdamW<float>;

extern template double clip_global_norm<float>(MagParams<float>&, double);
extern template double clip_global_norm<double>(MagParams<double>&, double);
extern template class BasicFrequencyAwareAdamW<float>;
extern template class BasicFrequencyAwareAdamW<double>;

}  // namespace nl
