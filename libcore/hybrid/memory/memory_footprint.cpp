#include "hybrid/memory/memory_types.hpp"

namespace hybrid {

MoveResult<void> MemoryFootprint::validate_len(std::size_t len) const {
  if (static_cast<std::uint64_t>(len) == bytes) return {};
  return MoveError::unsupported("Byte length mismatch: footprint says " + std::to_string(bytes) +
                                " bytes, data has " + std::to_string(len));
}

}  // namespace hybrid
