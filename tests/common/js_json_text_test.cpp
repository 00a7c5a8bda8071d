#include <doctest/doctest.h>

#include <limits>

#include "common/js_json_text.hpp"

using common::js_number_to_string;
using common::js_stringify_pretty;
using nlohmann::ordered_json;

TEST_CASE("js_json_text: numbers as ECMAScript Number::toString spells them") {
  CHECK(js_number_to_string(0.0) == "0");
  CHECK(js_number_to_string(-0.0) == "0");
  CHECK(js_number_to_string(1.0) == "1");
  CHECK(js_number_to_string(-2.5) == "-2.5");
  CHECK(js_number_to_string(0.1) == "0.1");
  CHECK(js_number_to_string(0.1 + 0.2) == "0.30000000000000004");
  CHECK(js_number_to_string(123.456) == "123.456");
  CHECK(js_number_to_string(0.000001) == "0.000001");   // the last plain one going down
  CHECK(js_number_to_string(0.0000001) == "1e-7");
  CHECK(js_number_to_string(1.5e-7) == "1.5e-7");
  CHECK(js_number_to_string(1e20) == "100000000000000000000");
  CHECK(js_number_to_string(123456789012345680000.0) == "123456789012345680000");
  CHECK(js_number_to_string(1e21) == "1e+21");  // the first exponent form going up
  CHECK(js_number_to_string(1.5e21) == "1.5e+21");
  CHECK(js_number_to_string(std::numeric_limits<double>::denorm_min()) == "5e-324");
  CHECK(js_number_to_string(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  CHECK(js_number_to_string(std::numeric_limits<double>::quiet_NaN()) == "null");
}

TEST_CASE("js_json_text: JSON.stringify(value, null, 2) layout") {
  const ordered_json doc = {{"b", 1}, {"a", ordered_json::array({0.5, "x\"y", true, nullptr})},
                            {"empty", ordered_json::object()}, {"none", ordered_json::array()}};
  CHECK(js_stringify_pretty(doc, 2) ==
        "{\n  \"b\": 1,\n  \"a\": [\n    0.5,\n    \"x\\\"y\",\n    true,\n    null\n  ],\n  \"empty\": {},\n"
        "  \"none\": []\n}");
  CHECK(js_stringify_pretty(ordered_json(1e-7), 4) == "1e-7");
}
