// common/throttled_file_system: a slower tier with the base's bytes (the time it adds is not
// asserted: tests never assert on wall time; nltrain_cli_episodes measures it end to end).
#include "common/throttled_file_system.hpp"

#include <doctest/doctest.h>

#include "common/atomic_file.hpp"
#include "support/temp_dir.hpp"

TEST_CASE("throttled_file_system: files written and read through it are the base's bytes") {
  testsupport::TempDir dir;
  common::ThrottledFileSystem slow(common::real_file_system(), std::chrono::microseconds(100));
  const std::string text(100000, 'x');
  REQUIRE(common::write_file_atomic(slow, dir.file("a"), text).ok());
  auto direct = common::read_text(common::real_file_system(), dir.file("a"), 1 << 20);
  REQUIRE(direct.ok());
  CHECK(*direct == text);
  auto through = common::read_text(slow, dir.file("a"), 1 << 20);
  REQUIRE(through.ok());
  CHECK(*through == text);
  CHECK(slow.file_size(dir.file("a")).value() == text.size());
  std::vector<std::byte> buf(text.size());  // read_exact: the whole file
  REQUIRE(slow.read_exact(dir.file("a"), buf).ok());
  CHECK(buf.back() == std::byte{'x'});
}
