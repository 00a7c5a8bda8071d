#include "hybrid/profiler/probe_cpu.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>

namespace hybrid {

namespace {

// Vector extensions that matter to kernels, as /proc/cpuinfo spells them.
constexpr std::string_view kSimdFlags[] = {"sse",      "sse2",     "sse3",        "pni",         "ssse3",
                                           "sse4_1",   "sse4_2",   "avx",         "avx2",        "fma",
                                           "f16c",     "avx512f",  "avx512bw",    "avx512vl",    "avx512_vnni",
                                           "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8",
                                           "asimd",    "sve",      "sve2",        "neon"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_simd_flag(std::string_view f) {
  return std::find(std::begin(kSimdFlags), std::end(kSimdFlags), f) != std::end(kSimdFlags);
}

std::vector<std::string> sorted_unique(std::set<std::string> s) { return {s.begin(), s.end()}; }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// cpuid through the compiler's runtime, which also checks that the OS saves AVX state.
std::vector<std::string> cpuid_simd() {
  __builtin_cpu_init();
  std::set<std::string> out;
  if (__builtin_cpu_supports("sse")) out.insert("sse");
  if (__builtin_cpu_supports("sse2")) out.insert("sse2");
  if (__builtin_cpu_supports("sse3")) out.insert("sse3");
  if (__builtin_cpu_supports("ssse3")) out.insert("ssse3");
  if (__builtin_cpu_supports("sse4.1")) out.insert("sse4_1");
  if (__builtin_cpu_supports("sse4.2")) out.insert("sse4_2");
  if (__builtin_cpu_supports("avx")) out.insert("avx");
  if (__builtin_cpu_supports("avx2")) out.insert("avx2");
  if (__builtin_cpu_supports("fma")) out.insert("fma");
  if (__builtin_cpu_supports("avx512f")) out.insert("avx512f");
  if (__builtin_cpu_supports("avx512bw")) out.insert("avx512bw");
  if (__builtin_cpu_supports("avx512vl")) out.insert("avx512vl");
  if (__builtin_cpu_supports("avx512vnni")) out.insert("avx512_vnni");
  return sorted_unique(std::move(out));
}
#endif

std::uint32_t scheduler_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<std::uint32_t>(n);
  }
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<std::uint32_t>(n) : 1U;
}

}  // namespace

CpuCaps parse_cpuinfo(std::string_view text) {
  CpuCaps caps;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::set<std::string> packages;
  std::set<std::string> simd;
  std::uint32_t cores_per_package = 0;
  std::string physical, core;
  bool flags_seen = false;
  auto flush = [&] {
    if (!physical.empty() && !core.empty()) cores.emplace(physical, core);
    physical.clear();
    core.clear();
  };
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (key == "processor") {
      flush();
      ++caps.logical_cores;
    } else if (key == "physical id") {
      physical = value;
      packages.emplace(value);
    } else if (key == "core id") {
      core = value;
    } else if (key == "cpu cores") {
      cores_per_package = static_cast<std::uint32_t>(std::strtoul(std::string(value).c_str(), nullptr, 10));
    } else if ((key == "flags" || key == "Features") && !flags_seen) {
      flags_seen = true;
      std::string_view rest = value;
      while (!rest.empty()) {
        const auto sp = rest.find(' ');
        std::string_view f = rest.substr(0, sp);
        rest = sp == std::string_view::npos ? std::string_view{} : trim(rest.substr(sp + 1));
        if (f == "pni") f = "sse3";  // the kernel's name for SSE3
        if (is_simd_flag(f)) simd.emplace(f);
      }
    }
  }
  flush();
  if (!cores.empty()) {
    caps.physical_cores = static_cast<std::uint32_t>(cores.size());
  } else if (cores_per_package > 0 && !packages.empty()) {
    caps.physical_cores = cores_per_package * static_cast<std::uint32_t>(packages.size());
  } else {
    caps.physical_cores = caps.logical_cores;
  }
  caps.simd = sorted_unique(std::move(simd));
  return caps;
}

CpuCaps probe_cpu(common::FileSystem& fs) {
  CpuCaps caps;
  if (auto text = common::read_text(fs, "/proc/cpuinfo", 8u << 20)) caps = parse_cpuinfo(*text);
  const std::uint32_t online = scheduler_cpus();
  // A cgroup or affinity mask can grant fewer CPUs than the machine has.
  if (caps.logical_cores == 0 || online < caps.logical_cores) caps.logical_cores = online;
  if (caps.physical_cores == 0 || caps.physical_cores > caps.logical_cores) caps.physical_cores = caps.logical_cores;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  caps.simd = cpuid_simd();
#endif
  return caps;
}

}  // namespace hybrid
