#include "nl/token_data.hpp"

#include <cstdint>
#include <string>

namespace nl {

std::size_t token_size(TokenFormat f) {
  switch (f) {
    case TokenFormat::u16: return 2;
    case TokenFormat::u32: return 4;
    case TokenFormat::bytes: break;
  }
  return 1;
}

std::string_view token_format_name(TokenFormat f) {
  switch (f) {
    case TokenFormat::u16: return "u16";
    case TokenFormat::u32: return "u32";
    case TokenFormat::bytes: break;
  }
  return "bytes";
}

std::optional<TokenFormat> parse_token_format(std::string_view name) {
  for (TokenFormat f : {TokenFormat::bytes, TokenFormat::u16, TokenFormat::u32}) {
    if (name == token_format_name(f)) return f;
  }
  return std::nullopt;
}

std::size_t token_at(std::string_view data, TokenFormat f, std::size_t i) {
  // Little-endian by definition of the format, whatever the host: assembled byte by byte.
  const std::size_t n = token_size(f);
  const auto* p = reinterpret_cast<const unsigned char*>(data.data()) + i * n;
  std::uint32_t id = 0;
  for (std::size_t b = n; b-- > 0;) id = (id << 8) | p[b];
  return id;
}

common::Status check_tokens(std::string_view data, TokenFormat f, std::size_t vocab) {
  const std::size_t n = token_size(f);
  if (data.size() % n != 0) {
    return common::Error::malformed("holds " + std::to_string(data.size()) + " bytes, not a whole number of " +
                                    std::to_string(n) + "-byte " + std::string(token_format_name(f)) + " tokens");
  }
  const std::size_t count = data.size() / n;
  // A vocabulary above the format's largest id holds every token: nothing to read.
  if (n < sizeof(std::size_t) && vocab > (std::size_t{1} << (8 * n)) - 1) return {};
  for (std::size_t i = 0; i < count; ++i) {
    if (const std::size_t id = token_at(data, f, i); id >= vocab) {
      return common::Error::malformed("token " + std::to_string(i) + " (byte offset " + std::to_string(i * n) + ") is id " +
                                      std::to_string(id) + ", outside vocab " + std::to_string(vocab) + " (ids 0.." +
                                      std::to_string(vocab - 1) + ")");
    }
  }
  return {};
}

}  // namespace nl
