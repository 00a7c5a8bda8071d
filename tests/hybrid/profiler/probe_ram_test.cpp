#include "hybrid/profiler/probe_ram.hpp"

#include <doctest/doctest.h>

using namespace hybrid;

TEST_CASE("probe_ram: MemAvailable is preferred") {
  auto r = parse_meminfo("MemTotal:       1000 kB\nMemFree:         100 kB\nMemAvailable:    400 kB\nCached: 50 kB\n");
  REQUIRE(r.ok());
  CHECK(r->total_bytes == 1024000);
  CHECK(r->free_bytes == 409600);
  CHECK(ram_pressure(*r) == doctest::Approx(0.6));
}

TEST_CASE("probe_ram: without MemAvailable, free + buffers + cached") {
  auto r = parse_meminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB\n");
  REQUIRE(r.ok());
  CHECK(r->free_bytes == 400 * 1024);
}

TEST_CASE("probe_ram: malformed meminfo is an error; zero total has no pressure") {
  CHECK_FALSE(parse_meminfo("").ok());
  CHECK_FALSE(parse_meminfo("MemTotal: lots\n").ok());
  CHECK(parse_meminfo("MemFree: 1 kB\n").error().code() == common::ErrorCode::malformed);
  CHECK_FALSE(ram_pressure(RamCaps{0, 0}).has_value());
  CHECK(*ram_pressure(RamCaps{100, 0}) == 1.0F);
}

TEST_CASE("probe_ram: the real machine") {
  auto r = probe_ram(common::real_file_system());
  REQUIRE(r.ok());
  CHECK(r->total_bytes > (64ull << 20));
  CHECK(r->free_bytes <= r->total_bytes);
}
