#pragma once
// N worker threads that run one function on submitted items, in whatever order they finish, while
// the one consumer takes the results back strictly in submission order (bp verify multi --jobs:
// records are parsed and checked in parallel, the cross-record fold sees them in input order).
//
// Item k runs on worker k mod N (the items are alike, so this balances them), which lets the
// consumer send memory back to the thread that allocated it (verify multi frees each record on
// the worker that parsed it: glibc's allocator pays for frees on another thread).
//
// The consumer bounds the window itself (it submits only while in_flight() is under its limit and
// otherwise takes next()), so a single thread can both feed and drain the pool without blocking on
// a full queue. An exception thrown by the function is carried to the consumer and rethrown by the
// next() that reaches its item, in order, as a single thread would have thrown it. Destroying the
// pool drops the items not yet started and joins the workers after their current item: a consumer
// that stops early (an error at item k) never waits on the items after k. submit, in_flight,
// next_ready and next are the consumer's: one thread calls them.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace common {

template <typename In, typename Out>
class InOrderPool {
 public:
  using Work = std::function<Out(In&)>;

  // `threads` >= 1 workers, each running `work` on one item at a time.
  InOrderPool(std::size_t threads, Work work) : work_(std::move(work)) {
    workers_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) workers_.push_back(std::make_unique<Worker>());
    threads_.reserve(threads);
    try {
      for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this, i] { serve(*workers_[i]); });
    } catch (...) {
      stop_workers();  // the threads started are joined by threads_' destructor
      throw;
    }
  }
  InOrderPool(const InOrderPool&) = delete;
  InOrderPool& operator=(const InOrderPool&) = delete;
  // Every worker is asked to stop before any is joined (each finishes its current item and takes
  // no other); threads_ is the last member, so they are joined before the items go.
  ~InOrderPool() { stop_workers(); }

  // The next item, k = the number submitted before it, for worker k mod N.
  void submit(In in) {
    Worker& worker = *workers_[submitted_ % workers_.size()];
    window_.push_back(std::make_unique<Slot>(std::move(in)));
    try {
      std::lock_guard lock(worker.mutex);
      worker.queue.push_back(window_.back().get());
    } catch (...) {
      window_.pop_back();  // an item no worker will run must not be waited for
      throw;
    }
    ++submitted_;
    worker.ready.notify_one();
  }

  // Items submitted and not yet taken by next().
  [[nodiscard]] std::size_t in_flight() const { return window_.size(); }

  // Whether next() would return without waiting. Precondition: in_flight() > 0.
  [[nodiscard]] bool next_ready() const { return window_.front()->done.load(std::memory_order_acquire); }

  // The oldest item's result, once its work is done (waits for it); its exception, rethrown.
  // Precondition: in_flight() > 0.
  [[nodiscard]] Out next() {
    if (!next_ready()) {
      // Waking costs a context switch on each side; when it has to wait, the consumer waits
      // for as many items as there are workers (or all it has), each in turn, so that one
      // wake-up often serves several results (verify multi, 2 jobs: 4,100 context switches for
      // 4,000 records instead of 6,700, and about 4% less CPU, when this was first measured).
      const std::size_t wanted = std::min(window_.size(), workers_.size());
      for (std::size_t i = 0; i < wanted; ++i) await(*window_[i]);
    }
    std::unique_ptr<Slot> slot = std::move(window_.front());
    window_.pop_front();
    if (slot->error) std::rethrow_exception(slot->error);
    return std::move(*slot->out);
  }

 private:
  struct Slot {
    explicit Slot(In i) : in(std::move(i)) {}
    In in;
    std::optional<Out> out;
    std::exception_ptr error;
    std::atomic<bool> done{false};  // set by the worker once out or error is written
  };

  // One per worker, each on cache lines of its own: the consumer and a worker share only that
  // worker's queue and the slots themselves, so the threads do not contend for one lock (verify
  // multi with 2 jobs took that lock about six times a record, from both cores).
  struct alignas(64) Worker {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<Slot*> queue;  // its items no one has started, in submission order
    bool stop = false;        // under mutex: take no other item
  };

  void stop_workers() {
    for (auto& worker : workers_) {
      {
        std::lock_guard lock(worker->mutex);
        worker->stop = true;
      }
      worker->ready.notify_one();
    }
  }

  // Sleeps until `slot` is done. The consumer publishes the slot it sleeps on and then reads
  // the flag; a worker sets the flag and then reads what is awaited (both sequentially
  // consistent), so at least one of them sees the other's write: either the consumer does not
  // sleep, or the worker wakes it, under wait_mutex_ so that the wake cannot fall between the
  // consumer's last look at the flag and its sleep.
  void await(const Slot& slot) {
    if (slot.done.load(std::memory_order_acquire)) return;
    std::unique_lock lock(wait_mutex_);
    awaited_.store(&slot);
    while (!slot.done.load()) result_ready_.wait(lock);
    awaited_.store(nullptr);
  }

  void serve(Worker& worker) {
    for (;;) {
      Slot* slot = nullptr;
      {
        std::unique_lock lock(worker.mutex);
        worker.ready.wait(lock, [&worker] { return worker.stop || !worker.queue.empty(); });
        if (worker.stop) return;  // items still queued are dropped
        slot = worker.queue.front();
        worker.queue.pop_front();
      }
      // Not a catch-all that hides: the exception is handed to the consumer, which rethrows it
      // in order; letting it leave the thread would terminate the process instead.
      try {
        slot->out.emplace(work_(slot->in));
      } catch (...) {
        slot->error = std::current_exception();
      }
      slot->done.store(true);  // from here on the consumer may free the slot: only its address is read below
      if (awaited_.load() == slot) {
        std::lock_guard lock(wait_mutex_);
        result_ready_.notify_one();
      }
    }
  }

  Work work_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::deque<std::unique_ptr<Slot>> window_;  // the consumer's alone: every item not yet taken, in submission order
  std::size_t submitted_ = 0;                 // the consumer's alone
  // Where the consumer sleeps, when it must: apart from its own fields, which it writes often.
  alignas(64) std::mutex wait_mutex_;
  std::condition_variable result_ready_;
  std::atomic<const Slot*> awaited_{nullptr};
  std::vector<std::jthread> threads_;  // last: joined before anything above goes
};

}  // namespace common
