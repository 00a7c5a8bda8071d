#pragma once
// Recording a memory level on the tape as one opaque block (nltrain-math §8, seed "OpaqueVjp"):
// the forward runs once in fp32 (the same code as untraced), its outputs and typed cache are
// copied into the tape, and backward calls the rule's registered adapter. Without an active tape
// these just compute (CS-40).
#include <span>
#include <vector>

#include "nl/rule_config.hpp"
#include "tape/opaque/opaque_registry.hpp"
#include "tape/tensor.hpp"

namespace nl {

struct RecordedChunk {
  tape::Tensor y;                  // s x d
  std::vector<float> final_state;  // the level's context after the chunk
};

// Active level: inputs x (s x d) and the flat level parameters (LevelParams layout); state0 is
// the context memory (a constant: no gradient flows into it). Throws tape::TapeError on shapes
// that do not fit cfg, or when the registry lacks the rule's key.
[[nodiscard]] RecordedChunk record_active(const tape::opaque::OpaqueRegistry& registry, RuleKind kind,
                                          const RuleConfig& cfg, const tape::Tensor& x,
                                          const tape::Tensor& params, std::span<const float> state);

// Frozen level: input Q~ = X W_Q^T (s x d, recorded by the caller so W_Q and X get gradients
// through the tape); the state is read only.
[[nodiscard]] tape::Tensor record_frozen(const tape::opaque::OpaqueRegistry& registry, RuleKind kind,
                                         const RuleConfig& cfg, const tape::Tensor& q_raw,
                                         std::span<const float> state);

}  // namespace nl
