// APX 13.0: hardware types and the profiler over the real machine.
#include "hybrid/profiler/hardware_profiler.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "hybrid/memory/fake_vram_adapter.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

TEST_CASE("hardware_types: backend kinds are usable and named") {
  BackendKind k = BackendKind::unknown;
  switch (k) {
    case BackendKind::unknown: CHECK(std::string(to_string(k)) == "unknown"); break;
    default: FAIL("unexpected backend");
  }
  CHECK(std::string(to_string(BackendKind::cuda)) == "cuda");
  CHECK(std::string(to_string(BackendKind::one_api)) == "oneapi");
}

TEST_CASE("hardware_profiler: probes this machine without a gpu") {
  testsupport::TempDir dir;
  ProfilerOptions opt;
  opt.ssd_cache_dir = dir.file("cache");
  opt.ssd.sample_bytes = 1 << 20;
  opt.timestamp_epoch_ms = 42;
  auto probed = probe_hardware(common::real_file_system(), opt);
  REQUIRE(probed.ok());
  const auto& s = *probed;
  CHECK(s.timestamp_epoch_ms == 42);
  CHECK(s.cpu.logical_cores >= 1);
  CHECK(s.cpu.physical_cores >= 1);
  CHECK(s.cpu.physical_cores <= s.cpu.logical_cores);
  CHECK(s.ram.total_bytes > 0);
  CHECK(s.ram.free_bytes <= s.ram.total_bytes);
  REQUIRE(s.pressure.ram_pressure.has_value());
  CHECK(*s.pressure.ram_pressure >= 0.0F);
  CHECK(*s.pressure.ram_pressure <= 1.0F);
  CHECK(s.gpus.empty());
  CHECK_FALSE(s.pressure.vram_pressure.has_value());
  CHECK(s.ssd.cache_dir == opt.ssd_cache_dir);
  REQUIRE(s.ssd.write_mb_s_est.has_value());
  CHECK(*s.ssd.write_mb_s_est > 0.0F);
  CHECK(*s.ssd.read_mb_s_est > 0.0F);
  REQUIRE(s.ssd.fs_total_bytes.has_value());
  CHECK(*s.ssd.fs_free_bytes <= *s.ssd.fs_total_bytes);
}

TEST_CASE("hardware_profiler: gpus come from the vram adapter") {
  testsupport::TempDir dir;
  GpuCaps dev;
  dev.id = "gpu0";
  dev.backend = BackendKind::cuda;
  dev.vram_total_bytes = 1000;
  dev.vram_free_bytes = 250;
  FakeVramAdapter fake(dev);
  ProfilerOptions opt;
  opt.ssd_cache_dir = dir.file("cache");
  opt.ssd.measure = false;
  opt.vram = &fake;
  auto s = probe_hardware(common::real_file_system(), opt);
  REQUIRE(s.ok());
  REQUIRE(s->gpus.size() == 1);
  CHECK(s->gpus[0].id == "gpu0");
  REQUIRE(s->pressure.vram_pressure.has_value());
  CHECK(*s->pressure.vram_pressure == doctest::Approx(0.75));
  CHECK(s->reliability_by_device.empty());  // a probe has seen no device fail
  CHECK_FALSE(s->ssd.read_mb_s_est.has_value());  // measurement turned off
}

TEST_CASE("hardware_profiler: an unusable cache directory is an error, not a crash") {
  testsupport::TempDir dir;
  { std::FILE* f = std::fopen(dir.file("file").c_str(), "w"); std::fclose(f); }
  ProfilerOptions opt;
  opt.ssd_cache_dir = dir.file("file");
  auto r = probe_hardware(common::real_file_system(), opt);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
}
