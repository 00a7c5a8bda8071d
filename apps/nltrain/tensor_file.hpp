#pragma once
// nltrain's parameters as a safetensors file (export, and --from for train / eval / generate):
// one F32 tensor per nl::named_tensors name with its shape, optionally the AdamW moments as
// "adam_m/<name>" and "adam_v/<name>"; __metadata__ holds "format": "pt", "nltrain.config" (the
// JSON of nl::config_to_json) and "nltrain.step" (the conductor's step, decimal).
#include <cstdint>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "nl/adamw.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"

namespace nltrain::cli {

inline constexpr const char* kConfigKey = "nltrain.config";
inline constexpr const char* kStepKey = "nltrain.step";

struct TensorFileState {
  nl::MagConfig cfg;
  nl::MagParams<float> params;
  std::optional<nl::MagParams<float>> adam_m, adam_v;  // set together, from --optimizer files
  std::uint64_t step = 0;
};

// The whole file's bytes. m and v go in when both are given.
[[nodiscard]] std::string encode_tensor_file(const nl::MagConfig& cfg, const nl::MagParams<float>& params,
                                             const nl::MagParams<float>* m, const nl::MagParams<float>* v,
                                             std::uint64_t step);

// Reads `path` strictly: the metadata keys, then every tensor the config needs (F32, its
// shape), no other; errors name the tensor or the key.
[[nodiscard]] common::Result<TensorFileState> load_tensor_file(const std::string& path);

}  // namespace nltrain::cli
