#include "common/base64.hpp"

#include <array>

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
  // EVP_DecodeBlock skips leading and trailing whitespace and ignores the bits padding stands
  // for; the checks here leave one text per byte string: the alphabet only, '=' only as the
  // last one or two characters, and zero bits under the padding.
  const std::size_t pad = text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0;
  static constexpr std::array<signed char, 256> kValue = [] {
    std::array<signed char, 256> t{};
    t.fill(-1);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    return t;
  }();
  auto value = [](char c) { return kValue[static_cast<unsigned char>(c)]; };
  signed char any_bad = 0;  // one branch for the whole text: its sign bit collects every -1
  for (std::size_t i = 0; i + pad < text.size(); ++i) any_bad |= value(text[i]);
  if (any_bad < 0) return std::nullopt;
  if (pad == 2 && (value(text[text.size() - 3]) & 0x0f) != 0) return std::nullopt;
  if (pad == 1 && (value(text[text.size() - 2]) & 0x03) != 0) return std::nullopt;
  std::vector<std::byte> out(3 * (text.size() / 4) + 1);
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  std::size_t size = static_cast<std::size_t>(n);
  // The block decoder counts padding as zero bytes: take them off.
  size -= pad;
  out.resize(size);
  return out;
}

}  // namespace common
