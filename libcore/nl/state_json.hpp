#pragma once
// The documented JSON state for checking a chunk from outside (issue 9, item 4). Input
// ("nltrain-state/0.1.0"): the configuration, every parameter by name (named_tensors.hpp) with
// shape and row-major data, the tokens of one chunk, optionally the initial context memory per
// level and the step (which sets the pulse). Output ("nltrain-state-result/0.1.0"): the loss,
// every outer parameter's gradient, the error-buffer contributions of frozen levels and the
// context after the chunk. Numbers are fp32 values written as the shortest decimal that reads
// back to the same double, hence the same float: they round-trip exactly.
//
// Reading is strict: unknown keys, a missing, extra, duplicated or mis-shaped parameter, a
// non-number, NaN/Inf or a value beyond fp32 are errors naming the JSON path.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "common/result.hpp"
#include "nl/conductor.hpp"
#include "nl/context_memory.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"
#include "tape/opaque/opaque_registry.hpp"

namespace nl {

inline constexpr const char* kStateFormat = "nltrain-state/0.1.0";
inline constexpr const char* kStateResultFormat = "nltrain-state-result/0.1.0";

struct StateInput {
  MagConfig cfg;
  MagParams<float> params;
  std::vector<std::size_t> ids, targets;
  std::optional<ContextMemory<float>> context;  // absent: every level's initial state
  std::uint64_t step = 0;                       // the conductor's step for this chunk
};

struct StateResult {
  float loss = 0;
  Pulse pulse;
  MagParams<float> gradients;                // frozen levels: zero
  std::vector<LevelParams<float>> error;     // per level; only frozen levels' are non-zero
  ContextMemory<float> context_after;
};

// The "config" object of the state (and of nltrain's step receipts): every field, the schedule
// only when learned. parse_config_json is strict and validates; `path` is the object's pointer.
[[nodiscard]] nlohmann::ordered_json config_to_json(const MagConfig& cfg);
[[nodiscard]] common::Result<MagConfig> parse_config_json(const nlohmann::ordered_json& c, const std::string& path);
[[nodiscard]] common::Result<MagConfig> parse_config_json(common::JsonView c, const std::string& path);  // a document's

[[nodiscard]] common::Result<StateInput> parse_state(const nlohmann::ordered_json& doc);
[[nodiscard]] nlohmann::ordered_json state_to_json(const StateInput& in);

// Runs the chunk through the tape path.
[[nodiscard]] common::Result<StateResult> evaluate_state(const tape::opaque::OpaqueRegistry& registry,
                                                         const StateInput& in);
[[nodiscard]] nlohmann::ordered_json result_to_json(const MagConfig& cfg, const StateResult& r);

// The same result from an fp64 evaluation with every number exact: each value is the binary64
// itself (the shortest decimal that reads back to it), not its fp32 rounding.
template <typename T>
struct MagGradients;
[[nodiscard]] nlohmann::ordered_json result_to_json_fp64(const MagConfig& cfg, const Pulse& pulse, double loss,
                                                         const MagGradients<double>& g,
                                                         const ContextMemory<double>& context_after);

}  // namespace nl
