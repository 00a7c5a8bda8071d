#include "common/python_float.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include "support/suite_paths.hpp"

namespace {

std::string repr(double v) {
  std::string s;
  REQUIRE(common::append_python_float(s, v));
  return s;
}

}  // namespace

TEST_CASE("python_float: fixed and exponent notation switch where Python's repr switches") {
  CHECK(repr(0.0) == "0.0");
  CHECK(repr(-0.0) == "-0.0");
  CHECK(repr(1.0) == "1.0");
  CHECK(repr(0.1) == "0.1");
  CHECK(repr(0.0001) == "0.0001");
  CHECK(repr(0.00001) == "1e-05");
  CHECK(repr(-1.5e-7) == "-1.5e-07");
  CHECK(repr(1234567890123456.0) == "1234567890123456.0");
  CHECK(repr(1e16) == "1e+16");
  CHECK(repr(12345678901234567.0) == "1.2345678901234568e+16");
  CHECK(repr(1e100) == "1e+100");
  CHECK(repr(5e-324) == "5e-324");
  CHECK(repr(static_cast<double>(0.3F)) == "0.30000001192092896");
  std::string s = "x";
  CHECK_FALSE(common::append_python_float(s, std::numeric_limits<double>::quiet_NaN()));
  CHECK_FALSE(common::append_python_float(s, -std::numeric_limits<double>::infinity()));
  CHECK(s == "x");
}

// Python's own repr() is the oracle: tests/common/data/make_python_repr_cases.py wrote 2,500
// values (random doubles, float32 values, the notation boundaries) with their repr.
TEST_CASE("python_float: 2,500 values spelled as Python's repr() spells them") {
  std::ifstream in(suite_test::source_dir() + "/tests/common/data/python_repr_cases.txt");
  REQUIRE(in);
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string hex, expected;
    fields >> hex >> expected;
    const std::uint64_t bits = std::stoull(hex, nullptr, 16);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    INFO(line);
    CHECK(repr(v) == expected);
    ++checked;
  }
  CHECK(checked == 2500);
}
