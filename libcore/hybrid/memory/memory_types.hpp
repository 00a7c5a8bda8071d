#pragma once
// APX 13.2.0: logical memory model: ids, footprints, per-tier telemetry, move plans, residences.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/memory/move_error.hpp"
#include "hybrid/memory/storage_backing.hpp"

namespace hybrid {

struct TensorId {
  std::string value;
  friend auto operator<=>(const TensorId&, const TensorId&) = default;
};

struct MemoryFootprint {
  std::uint64_t bytes = 0;
  // invalid_argument("Byte length mismatch: footprint says X bytes, data has Y") when len != bytes.
  [[nodiscard]] common::Status validate_len(std::size_t len) const;
};

// Optional telemetry for one tier; absent means unknown.
struct TierStatus {
  std::optional<std::uint64_t> total_bytes;
  std::optional<std::uint64_t> free_bytes;
  std::optional<float> pressure;  // [0, 1]
};

struct MemorySnapshot {
  TierStatus vram;
  TierStatus ram;
  TierStatus ssd;
};

// A snapshot with every field absent (the seed's empty_snapshot()).
[[nodiscard]] inline MemorySnapshot empty_memory_snapshot() { return {}; }

struct MovePlan {
  MemoryTier from = MemoryTier::cpu;
  MemoryTier to = MemoryTier::cpu;
  std::string reason;
};

struct TensorResidence {
  TensorId id;
  MemoryTier tier = MemoryTier::cpu;
  MemoryFootprint footprint;
  StorageBacking backing;
};

}  // namespace hybrid
