#pragma once
// APX 13.5.0: what the smart offload engine proposes.
#include <cstdint>
#include <string>
#include <vector>

namespace hybrid {

struct OffloadAction {
  enum class Kind : std::uint8_t { move_to_ram, move_to_ssd };

  Kind kind = Kind::move_to_ram;
  std::string tensor_id;

  static OffloadAction move_to_ram(std::string id) { return {Kind::move_to_ram, std::move(id)}; }
  static OffloadAction move_to_ssd(std::string id) { return {Kind::move_to_ssd, std::move(id)}; }

  friend bool operator==(const OffloadAction&, const OffloadAction&) = default;
};

[[nodiscard]] const char* to_string(OffloadAction::Kind kind);  // "MoveToRam", "MoveToSsd"

struct OffloadPlan {
  std::vector<OffloadAction> actions;
  std::string reason;  // English
};

// Reason texts (13.5.0-13.5.2).
inline constexpr const char* kOffloadBothHigh = "VRAM and RAM pressure high";
inline constexpr const char* kOffloadVramHigh = "VRAM pressure high";
inline constexpr const char* kOffloadVramHighNothing = "VRAM pressure high but no offloadable tensors in VRAM";
inline constexpr const char* kOffloadRamHigh = "RAM pressure high";
inline constexpr const char* kOffloadRamHighNothing = "RAM pressure high but no offloadable tensors in RAM";
inline constexpr const char* kOffloadNotNeeded = "No offloading needed";
inline constexpr const char* kOffloadHysteresisBand = "No new offloading due to hysteresis band";
inline constexpr const char* kOffloadCooldownSuffix = "; some tensors skipped due to cooldown";
inline constexpr const char* kOffloadPriorityPrefix = "; Priority offloading enabled; selected ";

}  // namespace hybrid
