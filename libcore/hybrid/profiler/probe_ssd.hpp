#pragma once
// SSD probe for the cache directory: filesystem size (statvfs) and a measured sequential
// write (with fsync) / read estimate. The measurement is cached per directory in a small
// key=value file inside it, so repeated probes cost nothing.
#include <cstdint>
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

struct SsdProbeOptions {
  std::uint64_t sample_bytes = 8ull << 20;  // size of the measurement file
  bool measure = true;                      // false: statvfs only
  bool use_cached = true;                   // reuse a previous measurement of this directory
};

// Name of the per-directory measurement cache file.
inline constexpr const char* kSsdProbeCacheFile = ".atenia_ssd_probe";

struct SsdMeasurement {
  float read_mb_s = 0;
  float write_mb_s = 0;
  float latency_ms = 0;
  std::uint64_t sample_bytes = 0;
};

// "read_mb_s=..\nwrite_mb_s=..\nlatency_ms=..\nsample_bytes=..\n"; parse is strict.
[[nodiscard]] std::string format_ssd_measurement(const SsdMeasurement& m);
[[nodiscard]] common::Result<SsdMeasurement> parse_ssd_measurement(std::string_view text);

// Creates `cache_dir` if needed. Errors: the directory cannot be created or is not a directory.
[[nodiscard]] common::Result<SsdCaps> probe_ssd(common::FileSystem& fs, const std::string& cache_dir,
                                                const SsdProbeOptions& options = {});

}  // namespace hybrid
