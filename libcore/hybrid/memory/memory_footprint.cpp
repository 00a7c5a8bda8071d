#include "hybrid/memory/memory_types.hpp"

namespace hybrid {

common::Status MemoryFootprint::validate_len(std::size_t len) const {
  if (static_cast<std::uint64_t>(len) == bytes) return {};
  return common::Error::invalid_argument("Byte length mismatch: footprint says " + std::to_string(bytes) +
                                         " bytes, data has " + std::to_string(len));
}

}  // namespace hybrid
