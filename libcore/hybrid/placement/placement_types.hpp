#pragma once
// APX 13.1: inputs and outputs of the tensor placement policy (decision only, no movement).
#include <cstdint>
#include <optional>
#include <string>

namespace hybrid {

enum class PlacementTarget : std::uint8_t { cpu, gpu, ram, vram, ssd };

[[nodiscard]] const char* to_string(PlacementTarget target);  // "cpu", "gpu", "ram", "vram", "ssd"

struct PlacementDecision {
  PlacementTarget target = PlacementTarget::cpu;
  std::optional<std::string> device_id;  // "gpu0" for Gpu/Vram targets; absent otherwise
  std::string reason;                    // English, for logs and explanations
};

struct TensorProfile {
  std::uint64_t num_elements = 0;
  std::uint32_t element_size_bytes = 0;
  std::optional<float> estimated_compute_cost;  // abstract units

  // Saturates at UINT64_MAX instead of wrapping.
  [[nodiscard]] std::uint64_t total_size_bytes() const;
};

}  // namespace hybrid
