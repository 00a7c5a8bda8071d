#include "common/base64.hpp"

#include <array>
#include <cstdint>

#include <openssl/evp.h>

namespace common {

std::string encode_base64(std::span<const std::byte> bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  // EVP_EncodeBlock writes a terminating NUL past the text: give it room, then drop it.
  out.push_back('\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::optional<std::vector<std::byte>> decode_base64(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  if (text.empty()) return std::vector<std::byte>{};
  // One pass that checks and decodes (tensor receipts carry megabytes of it): each character's
  // 6 bits from a table whose -1 marks anything outside the alphabet ('=' included), OR-ed into
  // one word whose sign says whether any was. '=' is only the last one or two characters, and
  // the bits under it are zero, so one byte string has one text.
  static constexpr std::array<std::int32_t, 256> kValue = [] {
    std::array<std::int32_t, 256> t{};
    t.fill(-1);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = i;
    return t;
  }();
  auto word = [](std::int32_t a, std::int32_t b, std::int32_t c, std::int32_t d) {
    return (static_cast<std::uint32_t>(a) << 18) | (static_cast<std::uint32_t>(b) << 12) | (static_cast<std::uint32_t>(c) << 6) |
           static_cast<std::uint32_t>(d);
  };
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size(), pad = in[n - 1] != '=' ? 0 : in[n - 2] != '=' ? 1 : 2;
  const std::size_t quads = n / 4 - 1;  // all but the last, which may hold padding
  std::vector<std::byte> out(3 * quads + 3 - pad);
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  std::int32_t bad = 0;
  for (std::size_t q = 0; q < quads; ++q, in += 4, o += 3) {
    const std::int32_t a = kValue[in[0]], b = kValue[in[1]], c = kValue[in[2]], d = kValue[in[3]];
    bad |= a | b | c | d;
    const std::uint32_t v = word(a, b, c, d);
    o[0] = static_cast<unsigned char>(v >> 16), o[1] = static_cast<unsigned char>(v >> 8), o[2] = static_cast<unsigned char>(v);
  }
  const std::int32_t a = kValue[in[0]], b = kValue[in[1]], c = pad == 2 ? 0 : kValue[in[2]], d = pad != 0 ? 0 : kValue[in[3]];
  bad |= a | b | c | d;
  if (bad < 0) return std::nullopt;
  if ((pad == 2 && (b & 0x0f) != 0) || (pad == 1 && (c & 0x03) != 0)) return std::nullopt;
  const std::uint32_t v = word(a, b, c, d);
  o[0] = static_cast<unsigned char>(v >> 16);
  if (pad < 2) o[1] = static_cast<unsigned char>(v >> 8);
  if (pad < 1) o[2] = static_cast<unsigned char>(v);
  return out;
}

}  // namespace common
