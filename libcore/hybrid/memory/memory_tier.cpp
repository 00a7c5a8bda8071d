#include "hybrid/memory/memory_tier.hpp"

namespace hybrid {

const char* to_string(MemoryTier tier) {
  switch (tier) {
    case MemoryTier::vram: return "vram";
    case MemoryTier::ram: return "ram";
    case MemoryTier::ssd: return "ssd";
    case MemoryTier::cpu: return "cpu";
  }
  return "unknown";
}

std::optional<MemoryTier> parse_memory_tier(std::string_view text) {
  for (MemoryTier t : {MemoryTier::vram, MemoryTier::ram, MemoryTier::ssd, MemoryTier::cpu}) {
    if (text == to_string(t)) return t;
  }
  return std::nullopt;
}

}  // namespace hybrid
