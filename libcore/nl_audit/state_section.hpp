#pragma once
// A Trainer's state (nl::TrainerState without its configuration) and a build step's trace as
// receipt tensors, in a fixed order with fixed names:
//   state:     params/<p>, adam_m/<p>, adam_v/<p>, context/<l>, error_buffer/<l>/<q>, and the
//              counters (conductor step, AdamW step counts, error-buffer counts)
//   gradients: grad/<p> (after active levels' error buffers were summed in, before clipping),
//              error/<l>/<q> for each frozen level (its error-buffer contribution)
// <p> is a parameter name of nl::named_tensors ("E", "levels/0/W_K", ...), <q> a level tensor's.
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "nl/trainer.hpp"
#include "nl_audit/tensor_entry.hpp"

namespace nl_audit {

struct Counters {
  std::uint64_t step = 0;
  std::uint64_t adam_tau = 0;
  std::vector<std::uint64_t> adam_tau_level;
  std::vector<std::uint64_t> error_buffer_counts;
  bool operator==(const Counters&) const = default;
};

struct StateSection {
  Counters counters;
  std::vector<TensorEntry> tensors;
};

// The names and shapes a state section holds for cfg, in order.
struct TensorSlot {
  std::string name;
  std::vector<std::size_t> shape;
};
[[nodiscard]] std::vector<TensorSlot> state_layout(const nl::MagConfig& cfg);
[[nodiscard]] std::vector<TensorSlot> gradient_layout(const nl::MagConfig& cfg, const nl::Pulse& pulse);

// T = float: f32 entries; double: f64 (an fp64 run's receipts). Instantiated for both.
template <typename T>
[[nodiscard]] StateSection encode_state(const nl::BasicTrainerState<T>& s, bool with_bytes);
template <typename T>
[[nodiscard]] std::vector<TensorEntry> encode_gradients(const nl::MagConfig& cfg, const nl::BasicStepTrace<T>& t,
                                                        const nl::Pulse& pulse, bool with_bytes);

// Back to a state (every tensor must carry its bytes, of T's dtype); `cfg`/`opt` complete it.
// Errors name the tensor.
template <typename T = float>
[[nodiscard]] common::Result<nl::BasicTrainerState<T>> decode_state(const StateSection& s, const nl::MagConfig& cfg,
                                                                    const nl::AdamWConfig& opt);

// The gradients and frozen error contributions back (grad_norm, clip_scale and lr stay unset).
template <typename T = float>
[[nodiscard]] common::Result<nl::BasicStepTrace<T>> decode_gradients(const std::vector<TensorEntry>& entries, const nl::MagConfig& cfg,
                                                                     const nl::Pulse& pulse);

}  // namespace nl_audit
