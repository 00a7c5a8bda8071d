#include "hybrid/profiler/probe_cpu_rates.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "hybrid/profiler/hardware_profiler.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

// Speeds are machine- and load-dependent, so only the domain is asserted: a figure is
// finite and inside the range the snapshot reader accepts (atenia refuses anything else).
TEST_CASE("measure_cpu_rates: both rates measured, finite and in the snapshot's domain") {
  const CpuRates r = measure_cpu_rates();
  REQUIRE(r.gflops.has_value());
  REQUIRE(r.mem_gb_s.has_value());
  CHECK(std::isfinite(*r.gflops));
  CHECK(*r.gflops >= 0.001F);
  CHECK(*r.gflops <= 1e9F);
  CHECK(std::isfinite(*r.mem_gb_s));
  CHECK(*r.mem_gb_s >= 0.001F);
  CHECK(*r.mem_gb_s <= 1e6F);
}

TEST_CASE("profiler: CPU rates are in the snapshot unless turned off") {
  testsupport::TempDir dir;
  ProfilerOptions opt;
  opt.ssd_cache_dir = dir.file("ssd");
  opt.ssd.measure = false;
  auto on = probe_hardware(common::real_file_system(), opt);
  REQUIRE(on.ok());
  CHECK(on->cpu.gflops_est.has_value());
  CHECK(on->cpu.mem_gb_s_est.has_value());
  opt.measure_cpu_rates = false;
  auto off = probe_hardware(common::real_file_system(), opt);
  REQUIRE(off.ok());
  CHECK_FALSE(off->cpu.gflops_est.has_value());
  CHECK_FALSE(off->cpu.mem_gb_s_est.has_value());
}
