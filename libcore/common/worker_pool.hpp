#pragma once
// WorkerPool: a fixed set of threads that run the tasks 0..n-1 of one call to run() and return
// when all are done. The calling thread takes tasks too, so a pool of N threads starts N - 1
// (a pool of 1 runs everything inline, in index order). Which thread runs which task is left to
// chance: a caller that wants results independent of the thread count writes each task's result
// to its own slot and combines the slots afterwards in index order (nl::batch_gradients does).
// A task that throws does not stop the others; run() rethrows the exception of the lowest such
// index once every task has finished.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace common {

class WorkerPool {
 public:
  // threads >= 1 (0 is taken as 1).
  explicit WorkerPool(std::size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  [[nodiscard]] std::size_t threads() const { return workers_.size() + 1; }

  // Runs task(i) for every i in [0, n) exactly once; not reentrant (one run() at a time).
  void run(std::size_t n, const std::function<void(std::size_t)>& task);

 private:
  void work(const std::stop_token& stop);
  // Takes and runs tasks of the current batch until none is left.
  void drain(std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  std::condition_variable_any wake_;  // a new batch, or stop
  std::condition_variable done_;      // the batch's last task finished
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t n_ = 0, next_ = 0, finished_ = 0;
  std::uint64_t generation_ = 0;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::jthread> workers_;  // last: started after the fields above exist, joined first
};

// The cores this process may run on (sched_getaffinity), at least 1.
[[nodiscard]] std::size_t available_cores();

}  // namespace common
