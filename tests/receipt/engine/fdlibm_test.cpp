// Values observed from Node (V8) Math.exp / Math.log / Math.pow, chosen where glibc rounds the
// other way, so these tests fail if the engine silently falls back to <cmath>.
#include <doctest/doctest.h>

#include <cmath>

#include "receipt/engine/fdlibm.hpp"

namespace fd = receipt::engine::fdlibm;

TEST_CASE("fdlibm: exp matches V8 where glibc differs") {
  CHECK(fd::exp(-0.5) == 0x1.368b2fc6f960ap-1);  // the reference's Math.exp(-0.5) canary
  CHECK(fd::exp(-0.54939746856689453) == 0x1.27938b3c325a6p-1);
  CHECK(std::exp(-0.54939746856689453) != 0x1.27938b3c325a6p-1);  // why fdlibm is needed at all
  CHECK(fd::exp(7.4152922630310059) == 0x1.9f4c746116a3cp+10);
  CHECK(fd::exp(0.0) == 1.0);
  CHECK(fd::exp(1000.0) == INFINITY);
  CHECK(fd::exp(-1000.0) == 0.0);
  CHECK(std::isnan(fd::exp(NAN)));
  CHECK(fd::exp(-INFINITY) == 0.0);
}

TEST_CASE("fdlibm: log matches V8 where glibc differs") {
  CHECK(fd::log(0x1.b2fbbc9ba5e35p+1) == 0x1.3928b68f2a7a2p+0);
  CHECK(fd::log(0x1.589a379ba5e35p+1) == 0x1.fb109abb814c6p-1);
  CHECK(fd::log(0.3) == -0x1.34378fcbda721p+0);
  CHECK(fd::log(1.0) == 0.0);
  CHECK(fd::log(0.0) == -INFINITY);
  CHECK(std::isnan(fd::log(-1.0)));
  CHECK(fd::log(0x1p-1074) == std::log(0x1p-1074));  // subnormal path
}

TEST_CASE("fdlibm: pow follows V8's grouping of the final division") {
  CHECK(fd::pow(0.94138404079675675, 3) == 0x1.ab23e4b5c6ba8p-1);
  CHECK(fd::pow(0.999, 7) == 0x1.fc6d3e72229bcp-1);
  CHECK(fd::pow(0.9, 3) == 0x1.753f7ced91688p-1);
  CHECK(fd::pow(2.0, 10) == 1024.0);
  CHECK(fd::pow(0.5, 2) == 0.25);
  CHECK(fd::pow(4.0, 0.5) == 2.0);
  CHECK(fd::pow(5.0, 0) == 1.0);
  CHECK(fd::pow(-2.0, 3) == -8.0);
  CHECK(std::isnan(fd::pow(-2.0, 0.5)));
  CHECK(std::isnan(fd::pow(1.0, INFINITY)));  // ECMAScript: 1 ** Infinity is NaN
}
