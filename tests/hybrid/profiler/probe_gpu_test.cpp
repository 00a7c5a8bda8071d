#include "hybrid/profiler/probe_gpu.hpp"

#include <doctest/doctest.h>

#include "hybrid/memory/fake_vram_adapter.hpp"

using namespace hybrid;

TEST_CASE("probe_gpu: no adapter or an unavailable one means no gpu") {
  CHECK(probe_gpus(nullptr).empty());
  NullVramAdapter null;
  CHECK(probe_gpus(&null).empty());
  FakeVramAdapter no_device;
  CHECK(probe_gpus(&no_device).empty());
  CHECK_FALSE(vram_pressure({}).has_value());
}

TEST_CASE("probe_gpu: devices reported by the adapter; pressure is the worst gpu") {
  GpuCaps a;
  a.id = "gpu0";
  a.vram_total_bytes = 100;
  a.vram_free_bytes = 90;
  FakeVramAdapter fake(a);
  auto gpus = probe_gpus(&fake);
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].id == "gpu0");
  GpuCaps b = a;
  b.id = "gpu1";
  b.vram_free_bytes = 20;
  GpuCaps unknown = a;
  unknown.vram_total_bytes = 0;
  CHECK(*vram_pressure({a, b, unknown}) == doctest::Approx(0.8));
  CHECK_FALSE(vram_pressure({unknown}).has_value());
}
