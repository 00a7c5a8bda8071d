#include "common/base64.hpp"

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
  // EVP_DecodeBlock skips leading and trailing whitespace and ignores what padding stands for;
  // re-encoding the result and comparing refuses every text but the canonical one.
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
    if (!ok) return std::nullopt;
  }
  std::vector<std::byte> out(3 * (text.size() / 4) + 1);
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  std::size_t size = static_cast<std::size_t>(n);
  // The block decoder counts padding as zero bytes: take them off.
  if (text.ends_with("==")) size -= 2;
  else if (text.ends_with("=")) size -= 1;
  out.resize(size);
  if (encode_base64(out) != text) return std::nullopt;
  return out;
}

}  // namespace common
