#pragma once
// CPU time of the calling thread, for the tape benchmarks' in-run ratios: on a shared, loaded
// machine wall time also counts the time other processes hold the core, which is not ours.
#include <ctime>

namespace tapebench {

[[nodiscard]] inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace tapebench
