#pragma once
// traced_cms_forward: cms_forward recorded on the tape (seed "CMS Integration", Phase 2/3). The
// standard ops go through tape/ops (whose kernels cms_forward calls directly), SWA and every
// level through their opaque blocks, so the loss is bitwise cms_forward<float>'s. A frozen
// level's Q~ = X W_Q^l is a tape matmul of a slice of the level's parameters, so its gradient
// reaches W_Q^l (-> error buffer) and X (-> E) through the tape.
#include <span>
#include <vector>

#include "common/result.hpp"
#include "nl/cms_backward.hpp"
#include "nl/conductor.hpp"
#include "nl/context_memory.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "nl/step_phases.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/tape.hpp"

namespace nl {

// The parameters as registered on a tape (snapshots, CS-47).
struct TapeParams {
  tape::Tensor e, w_q, w_k, w_v, w_o, u_emb;
  std::vector<tape::Tensor> levels;  // flat LevelParams each
  tape::Tensor w_freq{}, b_freq{};   // learned schedule only: (K-1) x d and 1 x (K-1)
};

[[nodiscard]] TapeParams register_params(tape::Tape& t, const MagConfig& cfg, const MagParams<float>& params);

struct TracedChunk {
  tape::Tensor loss;
  ContextMemory<float> context_after;
  Pulse pulse;  // the levels that ran active (the gate's choice under a learned schedule)
};

// Records one chunk on `t` (inputs checked as cms_forward does; throws tape::TapeError on
// violations, as the tape does).
[[nodiscard]] TracedChunk traced_cms_forward(tape::Tape& t, const tape::opaque::OpaqueRegistry& registry,
                                             const MagConfig& cfg, const TapeParams& params,
                                             std::span<const std::size_t> ids, std::span<const std::size_t> targets,
                                             const Pulse& pulse, const ContextMemory<float>& context);

struct TapeGradients {
  float loss = 0;
  MagGradients<float> grads;  // same split as cms_backward: frozen levels' go to `error`
  ContextMemory<float> context_after;
  Pulse pulse;  // as TracedChunk::pulse
};

// One chunk on a fresh tape: register, traced forward, backward, extract. Errors as values;
// TapeFailure::non_finite() says a value went NaN or Inf on the tape; code io, that `spill`
// failed. `observer` (may be null) is told the forward and the backward as phases of batch
// stream `stream`. spill (null: none): the tape's context spill hook (tape/context_spill.hpp).
[[nodiscard]] common::Expected<TapeGradients, tape::TapeFailure> tape_gradients(const tape::opaque::OpaqueRegistry& registry,
                                                           const MagConfig& cfg, const MagParams<float>& params,
                                                           std::span<const std::size_t> ids,
                                                           std::span<const std::size_t> targets, const Pulse& pulse,
                                                           const ContextMemory<float>& context,
                                                           StepObserver* observer = nullptr, std::size_t stream = 0,
                                                           tape::ContextSpill* spill = nullptr);

}  // namespace nl
