#include "hybrid/profiler/probe_ssd.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {
std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

TEST_CASE("probe_ssd: measures once, caches per directory, leaves no sample file") {
  testsupport::TempDir dir;
  const std::string cache = dir.file("cache");
  SsdProbeOptions opt;
  opt.sample_bytes = 1 << 20;
  auto first = probe_ssd(common::real_file_system(), cache, opt);
  REQUIRE(first.ok());
  REQUIRE(first->write_mb_s_est.has_value());
  CHECK(*first->write_mb_s_est > 0.0F);
  CHECK(*first->read_mb_s_est > 0.0F);
  CHECK(*first->latency_ms_est >= 0.0F);
  const std::string cache_file = cache + "/" + kSsdProbeCacheFile;
  REQUIRE(std::filesystem::exists(cache_file));
  CHECK_FALSE(std::filesystem::exists(cache + "/.atenia_ssd_probe.sample"));
  // A planted figure proves the second probe reads the cache instead of measuring.
  { std::ofstream(cache_file) << "read_mb_s=1.500\nwrite_mb_s=2.500\nlatency_ms=0.250\nsample_bytes=7\n"; }
  auto second = probe_ssd(common::real_file_system(), cache, opt);
  REQUIRE(second.ok());
  CHECK(*second->read_mb_s_est == 1.5F);
  CHECK(*second->write_mb_s_est == 2.5F);
  CHECK(*second->latency_ms_est == 0.25F);
  // A damaged cache is re-measured and rewritten.
  { std::ofstream(cache_file) << "garbage"; }
  auto third = probe_ssd(common::real_file_system(), cache, opt);
  REQUIRE(third.ok());
  CHECK(parse_ssd_measurement(slurp(cache_file)).ok());
  CHECK(parse_ssd_measurement(slurp(cache_file))->sample_bytes == opt.sample_bytes);
}

TEST_CASE("probe_ssd: statvfs only; errors for empty and non-directory paths") {
  testsupport::TempDir dir;
  SsdProbeOptions opt;
  opt.measure = false;
  auto r = probe_ssd(common::real_file_system(), dir.path(), opt);
  REQUIRE(r.ok());
  REQUIRE(r->fs_total_bytes.has_value());
  CHECK(*r->fs_total_bytes > 0);
  CHECK_FALSE(r->read_mb_s_est.has_value());
  CHECK(probe_ssd(common::real_file_system(), "", opt).error().code() == common::ErrorCode::invalid_argument);
  { std::ofstream(dir.file("f")) << "x"; }
  CHECK(probe_ssd(common::real_file_system(), dir.file("f"), opt).error().code() == common::ErrorCode::io);
}

TEST_CASE("probe_ssd: measurement cache format is strict") {
  SsdMeasurement m{12.5F, 3.25F, 0.5F, 4096};
  auto back = parse_ssd_measurement(format_ssd_measurement(m));
  REQUIRE(back.ok());
  CHECK(back->read_mb_s == 12.5F);
  CHECK(back->sample_bytes == 4096);
  CHECK_FALSE(parse_ssd_measurement("read_mb_s=1\nwrite_mb_s=1\nlatency_ms=1\n").ok());
  CHECK_FALSE(parse_ssd_measurement("read_mb_s=1\nread_mb_s=1\nwrite_mb_s=1\nlatency_ms=1\nsample_bytes=1\n").ok());
  CHECK_FALSE(parse_ssd_measurement("read_mb_s=-1\nwrite_mb_s=1\nlatency_ms=1\nsample_bytes=1\n").ok());
  CHECK_FALSE(parse_ssd_measurement("read_mb_s=1\nwrite_mb_s=1\nlatency_ms=1\nsample_bytes=1\nx=1\n").ok());
}

