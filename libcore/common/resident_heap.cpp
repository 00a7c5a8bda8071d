#include "common/resident_heap.hpp"

#include <atomic>

namespace common {
namespace {

std::atomic<ResidentRunner> g_runner{nullptr};

}  // namespace

void install_resident_runner(ResidentRunner runner) { g_runner.store(runner, std::memory_order_release); }

void build_resident(const std::function<void()>& build) {
  if (const ResidentRunner runner = g_runner.load(std::memory_order_acquire)) {
    runner(build);
  } else {
    build();
  }
}

}  // namespace common
