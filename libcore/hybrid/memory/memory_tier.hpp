#pragma once
// APX 13.2.0: the tiers a tensor can reside in. Cpu is the fallback for unmanaged tensors.
#include <cstdint>
#include <optional>
#include <string_view>

namespace hybrid {

enum class MemoryTier : std::uint8_t { vram, ram, ssd, cpu };

[[nodiscard]] const char* to_string(MemoryTier tier);                    // "vram", "ram", "ssd", "cpu"
[[nodiscard]] std::optional<MemoryTier> parse_memory_tier(std::string_view text);  // exact lowercase

}  // namespace hybrid
