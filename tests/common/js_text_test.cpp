// JavaScript's spellings that bp's messages quote (common/js_text.hpp); the expected strings are
// what Node prints for the same calls.
#include <doctest/doctest.h>

#include <limits>

#include "common/js_text.hpp"

TEST_CASE("js_text: toExponential rounds half away from zero on the exact decimal value") {
  CHECK(common::js_to_exponential(2.5, 0) == "3e+0");  // printf's half-to-even would say 2e+00
  CHECK(common::js_to_exponential(1.5, 0) == "2e+0");
  CHECK(common::js_to_exponential(0.5, 0) == "5e-1");
  CHECK(common::js_to_exponential(6.6839083285e-4, 9) == "6.683908328e-4");  // the double is below the tie
  CHECK(common::js_to_exponential(-std::numeric_limits<double>::infinity(), 3) == "-Infinity");
  CHECK(common::js_number_text(1e21) == "1e+21");
  CHECK(common::js_number_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
}

TEST_CASE("js_text: a string's length counts UTF-16 code units") {
  CHECK(common::utf16_units("a\xE2\x82\xAC\xF0\x9F\x98\x80") == 4);  // "a€😀": 1 + 1 + 2
  CHECK(common::utf16_units("") == 0);
}
