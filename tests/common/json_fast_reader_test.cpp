#include "common/json_fast_reader.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_input.hpp"
#include "support/suite_paths.hpp"

namespace {

using ojson = nlohmann::ordered_json;

// Equal including the kind of every number (unsigned / signed / double, where ordered_json's
// operator== says 1 == 1u == 1.0), the bits of every double (-0.0) and the order of keys.
bool same(const ojson& a, const ojson& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ojson::value_t::object: {
      if (a.size() != b.size()) return false;
      auto i = a.begin();
      auto j = b.begin();
      for (; i != a.end(); ++i, ++j) {
        if (i.key() != j.key() || !same(*i, *j)) return false;
      }
      return true;
    }
    case ojson::value_t::array:
      if (a.size() != b.size()) return false;
      for (std::size_t k = 0; k < a.size(); ++k) {
        if (!same(a[k], b[k])) return false;
      }
      return true;
    case ojson::value_t::number_float: {
      const double x = a.get<double>(), y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a == b;
  }
}

// The checked reader alone: nlohmann's own DOM parser has the same acceptance and DOM as the
// suite's SAX DomBuilder (strict, finite numbers, last duplicate wins at the first position).
std::optional<ojson> reference(const std::string& text) {
  try {
    return ojson::parse(text);
  } catch (const ojson::exception&) {
    return std::nullopt;
  }
}

// Whatever the fast path accepts, the checked reader accepts with the identical DOM.
void check_agrees(const std::string& text) {
  const auto fast = common::fast_read_json(text, common::kMaxJsonNestingDepth);
  if (!fast) return;
  const auto ref = reference(text);
  CAPTURE(text);
  REQUIRE(ref.has_value());
  CHECK(same(*fast, *ref));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("json_fast_reader: numbers keep nlohmann's kinds and binary64 values") {
  struct Case {
    const char* text;
    ojson::value_t type;
  };
  for (const Case& c : {Case{"0", ojson::value_t::number_unsigned}, Case{"-0", ojson::value_t::number_integer},
                        Case{"18446744073709551615", ojson::value_t::number_unsigned},
                        Case{"18446744073709551616", ojson::value_t::number_float},
                        Case{"-9223372036854775808", ojson::value_t::number_integer},
                        Case{"-9223372036854775809", ojson::value_t::number_float},
                        Case{"-0.0", ojson::value_t::number_float}, Case{"1E2", ojson::value_t::number_float},
                        Case{"0.1", ojson::value_t::number_float},
                        Case{"2.2250738585072014e-308", ojson::value_t::number_float},
                        Case{"1.7976931348623157e308", ojson::value_t::number_float},
                        Case{"0.0000000100000000", ojson::value_t::number_float}}) {
    CAPTURE(c.text);
    const auto fast = common::fast_read_json(c.text, 8);
    REQUIRE(fast.has_value());
    CHECK(fast->type() == c.type);
    check_agrees(c.text);
  }
}

TEST_CASE("json_fast_reader: leaves to the checked reader what it must judge") {
  for (const char* text : {"", " ", "01", "1.", ".5", "-", "+1", "1e", "1e+", "1e400", "-1e400", "1e-400", "NaN",
                           "tru", "nul", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "\"\\x\"", "\"\\u12\"",
                           "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\u0041\"", "\"\x01\"", "\"\xC0\xAF\"",
                           "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xE2\x82\"", "\"abc", "[", "{", "1 2",
                           "{\"a\":1}x", "\xEF\xBB\xBF{}", "\v1", "[1]\f"}) {
    CAPTURE(text);
    CHECK_FALSE(common::fast_read_json(text, 8).has_value());
  }
}

TEST_CASE("json_fast_reader: strings, escapes, duplicates and depth as the checked reader reads them") {
  for (const char* text : {"\"\\u0000\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\uD83D\\uDE00 \\u00e9 \xF0\x9F\x98\x80\"",
                           "\"\xE0\xA0\x80\xEF\xBF\xBF\xF4\x8F\xBF\xBF\x7F\"", "{\"a\":1,\"b\":2,\"a\":3}",
                           "{\"a\":{\"x\":1},\"a\":[2]}", " \t\r\n[ true , false , null ] \n", "{}", "[]", "[[[]]]"}) {
    CAPTURE(text);
    REQUIRE(common::fast_read_json(text, 8).has_value());
    check_agrees(text);
  }
  // Many keys, the duplicates found by hashing: still last value at the first position.
  std::string big = "{";
  for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  big += "\"k5\":\"again\",\"k77\":null}";
  const auto fast = common::fast_read_json(big, 8);
  REQUIRE(fast.has_value());
  CHECK(fast->size() == 100);
  CHECK(fast->at("k5") == "again");
  CHECK(std::next(fast->begin(), 5).key() == "k5");
  check_agrees(big);
  // Depth: exactly the limit is read; one more is left to the checked reader.
  CHECK(common::fast_read_json(std::string(8, '[') + std::string(8, ']'), 8).has_value());
  CHECK_FALSE(common::fast_read_json(std::string(9, '[') + std::string(9, ']'), 8).has_value());
}

TEST_CASE("json_fast_reader: seeded mutations of the fixtures never disagree with the checked reader") {
  std::vector<std::string> seeds;
  for (const char* name : {"iris.golden.jsonl", "xor.multi-step.jsonl", "mazur.golden.jsonl"}) {
    std::istringstream lines(read_file(suite_test::source_dir() + "/fixtures/" + name));
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) seeds.push_back(line);
    }
  }
  REQUIRE_FALSE(seeds.empty());
  std::mt19937_64 rng(14);
  const std::string alphabet = "{}[]\",:0123456789.eE+-\\u tfnrl\x80\xC3\xA9\xED\xF4\x01";
  std::size_t accepted = 0, total = 0;
  for (const auto& seed : seeds) {
    for (int k = 0; k < 400; ++k) {
      std::string text = seed;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = rng() % text.size();
        switch (rng() % 4) {
          case 0:
            text[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            text.erase(at, 1 + rng() % 4);
            break;
          case 2:
            text.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
          default:
            text.resize(at);
            break;
        }
      }
      ++total;
      if (common::fast_read_json(text, common::kMaxJsonNestingDepth)) ++accepted;
      check_agrees(text);
      // The strict reader as a whole: accepted iff nlohmann accepts, whichever path read it.
      CHECK(static_cast<bool>(common::parse_json_text(text)) == reference(text).has_value());
    }
  }
  MESSAGE("mutations: " << total << ", read on the fast path: " << accepted);
  CHECK(accepted > 0);
}

TEST_CASE("json_fast_reader: decimals on and around the exact fast path round as the checked reader does") {
  // Digits of 1-30 (2^53 and 19 digits are the fast path's edges, eight at a time the lexer's
  // stride), runs of zeros among them, the point anywhere, exponents to +-30 (10^22 is its
  // edge): every value bit for bit the checked reader's, signs of zero too.
  std::mt19937_64 rng(20261123);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int n = 0; n < 200000; ++n) {
    std::string digits;
    const int count = pick(1, 30);
    const bool zero_runs = pick(0, 3) == 0;
    for (int i = 0; i < count; ++i) {
      digits.push_back(static_cast<char>('0' + (zero_runs && i > 0 && pick(0, 2) != 0 ? 0 : pick(i == 0 ? 1 : 0, 9))));
    }
    if (pick(0, 3) == 0) digits = std::to_string((std::uint64_t{1} << 53) + static_cast<std::uint64_t>(pick(-2, 2)));
    std::string text = pick(0, 1) == 1 ? "-" : "";
    const int point = pick(0, static_cast<int>(digits.size()));
    text += point == 0 ? "0" : digits.substr(0, static_cast<std::size_t>(point));
    if (point < static_cast<int>(digits.size()) || pick(0, 1) == 1) {
      // Appended piece by piece: a literal + a temporary draws GCC 12's false -Wrestrict at -O3.
      text += '.';
      text += point < static_cast<int>(digits.size()) ? digits.substr(static_cast<std::size_t>(point)) : "0";
    }
    if (pick(0, 2) == 0) text = (text[0] == '-' ? "-0.000" : "0.000") + std::string(static_cast<std::size_t>(pick(0, 20)), '0') + digits;
    if (pick(0, 1) == 1) {
      text += pick(0, 1) == 1 ? 'e' : 'E';
      text += std::to_string(pick(-30, 30));
    }
    check_agrees(text);
  }
}
