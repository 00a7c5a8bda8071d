#include "common/float_json.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

TEST_CASE("float_json: the shortest decimal that reads back as the same float") {
  CHECK(common::float_json(0.82F).dump() == "0.82");
  CHECK(common::float_json(1.0F).dump() == "1.0");
  CHECK(common::float_json(-0.1F).dump() == "-0.1");
  CHECK(common::float_json(3.4028235e38F).dump() == "3.4028235e+38");
  CHECK(static_cast<float>(common::float_json(1e-45F).get<double>()) == 1e-45F);
  CHECK(common::float_json(std::numeric_limits<float>::quiet_NaN()).is_null());
  CHECK(common::float_json(std::numeric_limits<float>::infinity()).is_null());
}
