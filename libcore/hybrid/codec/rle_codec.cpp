#include "hybrid/codec/rle_codec.hpp"

#include <algorithm>
#include <string>

namespace hybrid {

std::pair<Bytes, CompressionMeta> rle_compress(std::span<const std::uint8_t> input) {
  Bytes out;
  std::size_t i = 0;
  while (i < input.size()) {
    const std::uint8_t value = input[i];
    std::size_t run = 1;
    while (run < 255 && i + run < input.size() && input[i + run] == value) ++run;
    out.push_back(static_cast<std::uint8_t>(run));
    out.push_back(value);
    i += run;
  }
  return {std::move(out), CompressionMeta{CompressionKind::rle, input.size(), 0, std::nullopt}};
}

common::Result<Bytes> rle_decompress(std::span<const std::uint8_t> input, const CompressionMeta& meta) {
  if (input.size() % 2 != 0) {
    return common::Error::malformed("Invalid RLE stream: odd length " + std::to_string(input.size()));
  }
  Bytes out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(meta.original_bytes, input.size() / 2 * 255)));
  for (std::size_t i = 0; i < input.size(); i += 2) {
    const std::uint8_t count = input[i];
    if (count == 0) return common::Error::malformed("Invalid RLE stream: zero count at byte " + std::to_string(i));
    if (out.size() + count > meta.original_bytes) {
      return common::Error::malformed("Invalid RLE stream: decodes to more than " +
                                      std::to_string(meta.original_bytes) + " bytes");
    }
    out.insert(out.end(), count, input[i + 1]);
  }
  if (out.size() != meta.original_bytes) {
    return common::Error::malformed("Invalid RLE stream: length mismatch, expected " +
                                    std::to_string(meta.original_bytes) + " bytes, decoded " +
                                    std::to_string(out.size()));
  }
  return out;
}

}  // namespace hybrid
