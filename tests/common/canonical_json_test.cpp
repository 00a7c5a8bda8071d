#include "common/canonical_json.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/json_string.hpp"
#include "common/number_format.hpp"

TEST_CASE("canonical_json: compact objects and arrays, commas placed by the writer") {
  common::CompactJsonWriter w;
  w.begin_object();
  w.key("lr");
  REQUIRE(w.number(0.5).ok());
  w.key("ids");
  w.begin_array();
  w.string("a");
  w.string("b\"");
  w.begin_object();
  w.end_object();
  w.end_array();
  w.key("n");
  REQUIRE(w.integer(3).ok());
  w.key("ok");
  w.boolean(true);
  w.key("none");
  w.null();
  w.key("raw");
  w.raw_value("[1]");
  w.end_object();
  CHECK(w.take() == R"({"lr":0.500000000,"ids":["a","b\"",{}],"n":3,"ok":true,"none":null,"raw":[1]})");
}

TEST_CASE("canonical_json: number errors leave the text untouched") {
  common::CompactJsonWriter w;
  w.begin_array();
  CHECK_FALSE(w.number(1e7).ok());
  CHECK_FALSE(w.number(NAN).ok());
  CHECK_FALSE(w.integer(1.5).ok());
  REQUIRE(w.number(-0.0).ok());
  w.end_array();
  CHECK(w.text() == "[0.000000000]");
}

TEST_CASE("canonical_json: commas after nested and empty containers, and after a refused number") {
  common::CompactJsonWriter w;
  w.begin_object();
  w.key("a");
  CHECK_FALSE(w.number(1e300).ok());  // refused after its key: the key still waits for its value
  REQUIRE(w.number(1).ok());
  w.key("b");
  w.begin_array();
  w.begin_array();
  w.end_array();
  w.begin_array();
  REQUIRE(w.number(2).ok());
  CHECK_FALSE(w.number(-1e7).ok());  // refused after an element: no comma left behind
  REQUIRE(w.number(3).ok());
  w.end_array();
  w.begin_object();
  w.end_object();
  w.end_array();
  w.key("c");
  w.begin_object();
  w.key("d");
  w.begin_array();
  w.end_array();
  w.end_object();
  w.end_object();
  CHECK(w.take() == R"({"a":1.00000000,"b":[[],[2.00000000,3.00000000],{}],"c":{"d":[]}})");
}

namespace {

// What the writer must produce, spelled the plain way: append_json_string and
// format_receipt_number into a std::string, commas by a flag per open container.
struct ModelWriter {
  std::string text;
  std::vector<bool> has_value{false};
  bool after_key = false;

  void separator() {
    if (after_key) {
      after_key = false;
      return;
    }
    if (has_value.size() > 1 && has_value.back()) text.push_back(',');
    has_value.back() = true;
  }
  void open(char c) {
    separator();
    text.push_back(c);
    has_value.push_back(false);
  }
  void close(char c) {
    text.push_back(c);
    has_value.pop_back();
  }
  void key(std::string_view k) {
    separator();
    common::append_json_string(text, k);
    text.push_back(':');
    after_key = true;
  }
  void value(std::string_view spelled) {
    separator();
    text.append(spelled);
  }
};

// Bytes that take every way through the writer: plain ASCII, quotes and backslashes, control
// bytes, UTF-8 and bytes that are not.
std::string random_text(std::mt19937_64& rng) {
  static constexpr std::string_view kPool[] = {"a", "Z", "_", "7", " ", "\"", "\\", "\n", std::string_view("\0", 1),
                                               "\x1f", "\x7f", "\xc3\xa9", "\xe4\xb8\xad", "\xff", "/"};
  const std::size_t kinds = rng() % 4 == 0 ? std::size(kPool) : 4;  // mostly plain
  const std::size_t n = rng() % 4 == 0 ? rng() % 70 : rng() % 20;
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s.append(kPool[rng() % kinds]);
  return s;
}

double random_number(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return 0.0;
    case 1: return static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000);
    case 2: return std::ldexp(static_cast<double>(rng() % (1u << 30)), -static_cast<int>(rng() % 60));
    case 3: return -std::ldexp(static_cast<double>(rng()), -static_cast<int>(rng() % 100));
    case 4: return rng() % 2 ? NAN : 1e300;  // refused
    default: return std::bit_cast<double>(rng());
  }
}

}  // namespace

TEST_CASE("canonical_json: random documents equal the plain spelling, across every growth of the text") {
  std::mt19937_64 rng(20261201);
  for (int round = 0; round < 400; ++round) {
    common::CompactJsonWriter w;
    ModelWriter m;
    if (round % 3 == 1) w.reserve(rng() % 64);  // room given up front, smaller than the text
    std::vector<char> open;   // '{' or '['
    bool key_due = false;     // inside an object, a key is next
    const std::size_t tokens = 1 + rng() % 300;
    for (std::size_t t = 0; t < tokens; ++t) {
      if (!open.empty() && open.back() == '{' && key_due) {
        const std::string k = random_text(rng);
        w.key(k);
        m.key(k);
        key_due = false;
        continue;
      }
      const auto kind = rng() % 9;
      if (kind == 0 && open.size() < 12) {
        const char c = rng() % 2 ? '{' : '[';
        c == '{' ? w.begin_object() : w.begin_array();
        m.open(c);
        open.push_back(c);
        key_due = c == '{';
      } else if (kind == 1 && !open.empty()) {
        open.back() == '{' ? w.end_object() : w.end_array();
        m.close(open.back() == '{' ? '}' : ']');
        open.pop_back();
      } else {
        // A value; inside an object the next token is a key again.
        if (kind == 2) {
          const std::string s = random_text(rng);
          w.string(s);
          m.value(common::json_string(s));
        } else if (kind == 3) {
          const bool b = rng() % 2;
          w.boolean(b);
          m.value(b ? "true" : "false");
        } else if (kind == 4) {
          w.null();
          m.value("null");
        } else if (kind == 5) {
          const double v = std::round(random_number(rng));
          auto spelled = common::format_receipt_integer(v);
          CHECK(w.integer(v).ok() == spelled.ok());
          if (!spelled) continue;  // refused: nothing written, the key still waits for its value
          m.value(*spelled);
        } else {
          const double v = random_number(rng);
          auto spelled = common::format_receipt_number(v);
          CHECK(w.number(v).ok() == spelled.ok());
          if (!spelled) continue;
          m.value(*spelled);
        }
        key_due = !open.empty() && open.back() == '{';
      }
      REQUIRE(w.text() == m.text);
    }
    CHECK(w.take() == m.text);
    CHECK(w.text().empty());
    w.begin_array();  // a writer taken from starts again from nothing
    w.end_array();
    CHECK(w.take() == "[]");
  }
}
