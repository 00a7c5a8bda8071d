#include "common/worker_pool.hpp"

#include <sched.h>

#include <algorithm>

namespace common {

WorkerPool::WorkerPool(std::size_t threads) {
  const std::size_t extra = std::max<std::size_t>(threads, 1) - 1;
  workers_.reserve(extra);
  for (std::size_t i = 0; i < extra; ++i) workers_.emplace_back([this](const std::stop_token& stop) { work(stop); });
}

WorkerPool::~WorkerPool() {
  for (std::jthread& w : workers_) w.request_stop();
  wake_.notify_all();
  workers_.clear();  // joins
}

void WorkerPool::run(std::size_t n, const std::function<void(std::size_t)>& task) {
  if (n == 0) return;
  std::unique_lock lock(mu_);
  task_ = &task;
  n_ = n, next_ = 0, finished_ = 0;
  errors_.assign(n, nullptr);
  ++generation_;
  wake_.notify_all();
  drain(lock);
  done_.wait(lock, [this] { return finished_ == n_; });
  task_ = nullptr;
  // The lowest index, whichever thread ran it: what a caller sees does not depend on the timing.
  for (std::exception_ptr& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

void WorkerPool::work(const std::stop_token& stop) {
  std::unique_lock lock(mu_);
  std::uint64_t seen = 0;  // the generation at construction: a worker that starts late still sees the first batch
  while (true) {
    if (!wake_.wait(lock, stop, [&] { return generation_ != seen; })) return;  // stop requested
    seen = generation_;
    drain(lock);
  }
}

void WorkerPool::drain(std::unique_lock<std::mutex>& lock) {
  while (task_ != nullptr && next_ < n_) {
    const std::size_t i = next_++;
    const std::function<void(std::size_t)>& task = *task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      task(i);
    } catch (...) {  // not swallowed: run() rethrows it on the calling thread
      error = std::current_exception();
    }
    lock.lock();
    errors_[i] = error;
    if (++finished_ == n_) done_.notify_one();
  }
}

std::size_t available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return static_cast<std::size_t>(std::max(CPU_COUNT(&set), 1));
  return std::max<std::size_t>(std::thread::hardware_concurrency(), 1);
}

}  // namespace common
