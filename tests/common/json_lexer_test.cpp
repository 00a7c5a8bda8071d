// common/json_lexer.hpp's eight-digit stride: eight_digits says true exactly when all eight bytes
// are ASCII digits (every byte value at every position, carries out of 0xFA..0xFF included), and
// eight_digit_value gives their decimal value.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "common/json_lexer.hpp"

namespace {

std::uint64_t word_of(const std::string& eight) {
  std::uint64_t w = 0;
  std::memcpy(&w, eight.data(), 8);
  return w;  // the lexer reads little-endian; these tests run where it is native
}

}  // namespace

TEST_CASE("json_lexer: eight_digits accepts eight ASCII digits and nothing else") {
  using common::json_lexer::eight_digits;
  CHECK(eight_digits(word_of("00000000")));
  CHECK(eight_digits(word_of("99999999")));
  CHECK(eight_digits(word_of("01234567")));
  for (int at = 0; at < 8; ++at) {
    for (int byte = 0; byte < 256; ++byte) {
      for (const char* base : {"12345678", "99999999", "00000000"}) {
        std::string text = base;
        text[static_cast<std::size_t>(at)] = static_cast<char>(byte);
        CAPTURE(at);
        CAPTURE(byte);
        CHECK(eight_digits(word_of(text)) == (byte >= '0' && byte <= '9'));
      }
    }
  }
}

TEST_CASE("json_lexer: eight_digit_value is the digits' decimal value") {
  using common::json_lexer::eight_digit_value;
  CHECK(eight_digit_value(word_of("00000000")) == 0u);
  CHECK(eight_digit_value(word_of("99999999")) == 99999999u);
  CHECK(eight_digit_value(word_of("00000001")) == 1u);
  CHECK(eight_digit_value(word_of("10000000")) == 10000000u);
  std::mt19937_64 rng(8);
  for (int n = 0; n < 100000; ++n) {
    std::string text;
    for (int i = 0; i < 8; ++i) text.push_back(static_cast<char>('0' + rng() % 10));
    CAPTURE(text);
    CHECK(eight_digit_value(word_of(text)) == std::stoull(text));
  }
}

TEST_CASE("json_lexer: skip_plain stops at the first byte that needs a look, wherever it is") {
  // Each byte value at each position of texts of up to 40 bytes (past two 16-byte strides and
  // into the 8-byte and byte-at-a-time tails): where it stops is where plain() first says no.
  using common::json_lexer::Cursor;
  using common::json_lexer::plain;
  using common::json_lexer::skip_plain;
  for (std::size_t length = 0; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(byte);
        std::size_t want = 0;
        while (want < text.size() && plain(static_cast<unsigned char>(text[want]))) ++want;
        Cursor c{text.data(), text.data() + text.size()};
        skip_plain(c);
        CAPTURE(length);
        CAPTURE(at);
        CAPTURE(byte);
        REQUIRE(static_cast<std::size_t>(c.p - text.data()) == want);
      }
    }
  }
}
