#include "jobs_option.hpp"

#include <algorithm>
#include <charconv>

#include "common/worker_pool.hpp"

namespace bp::cli {

// Available: the process's CPU affinity (taskset, a container's cpuset), not the cores the
// machine has online, which is what std::thread::hardware_concurrency counts.
std::variant<std::size_t, CliError> jobs_option(const Invocation& inv, const std::string& command) {
  if (!inv.jobs) return std::min(common::available_cores(), kMaxDefaultJobs);
  const std::string& text = *inv.jobs;
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > kMaxJobs) {
    CliError e;
    e.code = "INVALID_JOBS";
    e.message = "--jobs: '" + text + "': " + command + " runs on 1 to " + std::to_string(kMaxJobs) + " jobs";
    e.exit_code = kExitInvalidArgument;
    return e;
  }
  return n;
}

}  // namespace bp::cli
