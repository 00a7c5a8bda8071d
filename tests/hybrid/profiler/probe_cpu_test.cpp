#include "hybrid/profiler/probe_cpu.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace hybrid;

namespace {
bool has(const CpuCaps& c, const std::string& f) { return std::find(c.simd.begin(), c.simd.end(), f) != c.simd.end(); }
}  // namespace

TEST_CASE("probe_cpu: parses topology and filters simd flags") {
  const char* text =
      "processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\ncpu cores\t: 2\n"
      "flags\t\t: fpu sse sse2 pni ssse3 sse4_1 sse4_2 avx avx2 fma ht\n\n"
      "processor\t: 1\nphysical id\t: 0\ncore id\t\t: 0\ncpu cores\t: 2\nflags\t\t: fpu sse\n\n"
      "processor\t: 2\nphysical id\t: 0\ncore id\t\t: 1\ncpu cores\t: 2\n\n"
      "processor\t: 3\nphysical id\t: 0\ncore id\t\t: 1\ncpu cores\t: 2\n";
  CpuCaps c = parse_cpuinfo(text);
  CHECK(c.logical_cores == 4);
  CHECK(c.physical_cores == 2);
  CHECK(c.simd == std::vector<std::string>{"avx", "avx2", "fma", "sse", "sse2", "sse3", "sse4_1", "sse4_2", "ssse3"});
  CHECK_FALSE(has(c, "fpu"));
}

TEST_CASE("probe_cpu: falls back when topology keys are absent") {
  CpuCaps arm = parse_cpuinfo("processor : 0\nFeatures : fp asimd crc32\n\nprocessor : 1\n");
  CHECK(arm.logical_cores == 2);
  CHECK(arm.physical_cores == 2);
  CHECK(arm.simd == std::vector<std::string>{"asimd"});
  CpuCaps empty = parse_cpuinfo("");
  CHECK(empty.logical_cores == 0);
  CHECK(empty.simd.empty());
}

TEST_CASE("probe_cpu: the real machine") {
  CpuCaps c = probe_cpu(common::real_file_system());
  CHECK(c.logical_cores >= 1);
  CHECK(c.physical_cores >= 1);
  CHECK(c.physical_cores <= c.logical_cores);
#if defined(__x86_64__)
  CHECK(has(c, "sse2"));  // part of x86-64
#endif
  CHECK(std::is_sorted(c.simd.begin(), c.simd.end()));
}
