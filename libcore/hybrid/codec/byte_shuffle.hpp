#pragma once
// Byte-shuffle filter (as in Blosc): for elements of width w, output byte plane k holds byte k
// of every element. Exponent bytes of floats end up together and compress well. A tail shorter
// than one element is copied unchanged.
#include <cstdint>
#include <span>

namespace hybrid {

// out.size() must equal in.size(); element_size >= 1.
void byte_shuffle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::uint32_t element_size);
void byte_unshuffle(std::span<const std::uint8_t> in, std::span<std::uint8_t> out, std::uint32_t element_size);

}  // namespace hybrid
