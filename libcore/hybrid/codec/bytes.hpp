#pragma once
// An owned byte buffer: what codecs produce and what the memory tiers hold.
#include <cstdint>
#include <vector>

namespace hybrid {

using Bytes = std::vector<std::uint8_t>;

}  // namespace hybrid
