#include "hybrid/memory/memory_tier.hpp"

namespace hybrid {

const char* to_string(MemoryTier tier) {
  switch (tier) {
    case MemoryTier::Vram: return "vram";
    case MemoryTier::Ram: return "ram";
    case MemoryTier::Ssd: return "ssd";
    case MemoryTier::Cpu: return "cpu";
  }
  return "unknown";
}

std::optional<MemoryTier> parse_memory_tier(std::string_view text) {
  for (MemoryTier t : {MemoryTier::Vram, MemoryTier::Ram, MemoryTier::Ssd, MemoryTier::Cpu}) {
    if (text == to_string(t)) return t;
  }
  return std::nullopt;
}

}  // namespace hybrid
