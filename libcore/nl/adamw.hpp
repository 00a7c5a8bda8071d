#pragma once
// Frequency-aware AdamW, the outer optimizer (nltrain-math §10, O-9, O-12): global-norm clip over
// all gradients (after error buffers are merged), decoupled weight decay on every tensor, the
// attention group stepping every step and each level's group only when the level is active,
// with its own bias-correction count.
// Templates on the element type T of parameters, gradients and moments: float (nltrain train)
// and double (train --fp64), explicitly instantiated in adamw.cpp; the float names below are
// what they always were.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/worker_pool.hpp"
#include "nl/conductor.hpp"
#include "nl/mag_params.hpp"

namespace nl {

struct AdamWConfig {
  double lr = 3e-4;  // peak
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0.1;
  double clip = 1.0;
  std::uint64_t warmup = 0, total_steps = 1;
};

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

  // One update with already clipped gradients: the attention group always, level l when active.
  // pool: the element-wise update split over its threads (each element's arithmetic, and so every
  // bit, is the same either way); null: on the calling thread.
  void step(MagParams<T>& params, const MagParams<T>& grads, const Pulse& pulse, double lr,
            common::WorkerPool* pool = nullptr);

  [[nodiscard]] std::uint64_t attention_steps() const { return tau_; }
  [[nodiscard]] std::uint64_t level_steps(std::size_t l) const { return tau_level_[l]; }
  [[nodiscard]] const AdamWConfig& config() const { return opt_; }
  [[nodiscard]] BasicAdamWState<T> state() const { return {m_, v_, tau_, tau_level_}; }
  [[nodiscard]] BasicAdamWState<T> take_state() && { return {std::move(m_), std::move(v_), tau_, std::move(tau_level_)}; }
  // `s` must be shaped for the configuration this optimizer was built for (checked by the caller).
  void restore(BasicAdamWState<T> s) {
    m_ = std::move(s.m), v_ = std::move(s.v), tau_ = s.tau, tau_level_ = std::move(s.tau_level);
  }

 private:
  AdamWConfig opt_;
  MagParams<T> m_, v_;
  std::uint64_t tau_ = 0;
  std::vector<std::uint64_t> tau_level_;
};
using FrequencyAwareAdamW = BasicFrequencyAwareAdamW<float>;

extern template double clip_global_norm<float>(MagParams<float>&, double);
extern template double clip_global_norm<double>(MagParams<double>&, double);
extern template class BasicFrequencyAwareAdamW<float>;
extern template class BasicFrequencyAwareAdamW<double>;

}  // namespace nl
