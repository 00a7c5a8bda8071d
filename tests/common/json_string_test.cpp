#include "common/json_string.hpp"

#include <doctest/doctest.h>

#include <string>

using common::json_string;

// Expected spellings are JSON.stringify's (checked with node when written).
TEST_CASE("json_string: escapes exactly as JSON.stringify") {
  CHECK(json_string("plain") == R"("plain")");
  CHECK(json_string("q\"b\\s/") == R"("q\"b\\s/")");
  CHECK(json_string("\b\f\n\r\t") == R"("\b\f\n\r\t")");
  CHECK(json_string(std::string("\x00\x01\x1f\x7f", 4)) == "\"\\u0000\\u0001\\u001f\x7f\"");
  CHECK(json_string("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80") == "\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\"");
  CHECK(json_string("\xe2\x80\xa8\xe2\x80\xa9") == "\"\xe2\x80\xa8\xe2\x80\xa9\"");  // U+2028/9 stay raw
  CHECK(json_string("") == R"("")");
}

TEST_CASE("json_string: ill-formed UTF-8 becomes U+FFFD per maximal subpart, as Node decodes it") {
  const std::string bad("a\xff" "b\xe2\x82" "c\xed\xa0\x80" "d\xf0\x9f\x98", 13);
  const std::string r = "\xef\xbf\xbd";
  CHECK(json_string(bad) == "\"a" + r + "b" + r + "c" + r + r + r + "d" + r + "\"");
  CHECK(json_string("\xc0\xaf") == "\"" + r + r + "\"");  // overlong
  CHECK(json_string("\xf4\x90\x80\x80") == "\"" + r + r + r + r + "\"");  // above U+10FFFF
}

TEST_CASE("json_string: append_json_string appends") {
  std::string out = "x:";
  common::append_json_string(out, "a\"");
  CHECK(out == "x:\"a\\\"\"");
}

// The plain runs are scanned eight bytes at a time: each byte that needs care, at every position
// of strings up to 24 bytes (so before, inside and after whole words), is still found.
TEST_CASE("json_string: a byte that needs escaping or decoding is found at any position") {
  struct Case {
    std::string bytes, spelled;
  };
  const std::string r = "\xef\xbf\xbd";
  const Case cases[] = {{"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {std::string(1, '\0'), "\\u0000"},
                        {"\x1f", "\\u001f"}, {"\x7f", "\x7f"}, {" ", " "}, {"\xc3\xa9", "\xc3\xa9"},
                        {"\xff", r}, {"\x80", r}, {"\xe2\x82", r}};
  for (std::size_t length = 0; length <= 24; ++length) {
    for (std::size_t at = 0; at <= length; ++at) {
      for (const auto& c : cases) {
        const std::string before(at, 'a'), after(length - at, '~');
        CAPTURE(length);
        CAPTURE(at);
        CAPTURE(c.spelled);
        CHECK(json_string(before + c.bytes + after) == "\"" + before + c.spelled + after + "\"");
      }
    }
  }
}
