#pragma once
// N worker threads that run one function on submitted items, in whatever order they finish, while
// the one consumer takes the results back strictly in submission order (bp verify multi --jobs:
// records are parsed and checked in parallel, the cross-record fold sees them in input order).
//
// The consumer bounds the window itself (it submits only while in_flight() is under its limit and
// otherwise takes next()), so a single thread can both feed and drain the pool without blocking on
// a full queue. An exception thrown by the function is carried to the consumer and rethrown by the
// next() that reaches its item, in order, as a single thread would have thrown it. Destroying the
// pool drops the items not yet started and joins the workers after their current item: a consumer
// that stops early (an error at item k) never waits on the items after k.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <utility>
#include <vector>

namespace verify {

template <typename In, typename Out>
class InOrderPool {
 public:
  using Work = std::function<Out(In&)>;

  // `threads` >= 1 workers, each running `work` on one item at a time.
  InOrderPool(std::size_t threads, Work work) : work_(std::move(work)) {
    threads_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) {
      threads_.emplace_back([this](std::stop_token stop) { serve(stop); });
    }
  }
  InOrderPool(const InOrderPool&) = delete;
  InOrderPool& operator=(const InOrderPool&) = delete;
  // Every worker is asked to stop before any is joined (each finishes its current item and takes
  // no other); threads_ is the last member, so they are joined before the items go.
  ~InOrderPool() {
    for (auto& t : threads_) t.request_stop();
  }

  void submit(In in) {
    auto slot = std::make_unique<Slot>(std::move(in));
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(slot.get());
      window_.push_back(std::move(slot));
    }
    work_ready_.notify_one();
  }

  // Items submitted and not yet taken by next().
  [[nodiscard]] std::size_t in_flight() const {
    std::lock_guard lock(mutex_);
    return window_.size();
  }

  // The oldest item's result, once its work is done (waits for it); its exception, rethrown.
  // Precondition: in_flight() > 0.
  [[nodiscard]] Out next() {
    std::unique_ptr<Slot> slot;
    {
      std::unique_lock lock(mutex_);
      Slot* oldest = window_.front().get();
      result_ready_.wait(lock, [oldest] { return oldest->done; });
      slot = std::move(window_.front());
      window_.pop_front();
    }
    if (slot->error) std::rethrow_exception(slot->error);
    return std::move(*slot->out);
  }

 private:
  struct Slot {
    explicit Slot(In i) : in(std::move(i)) {}
    In in;
    std::optional<Out> out;
    std::exception_ptr error;
    bool done = false;  // guarded by mutex_
  };

  void serve(const std::stop_token& stop) {
    for (;;) {
      Slot* slot = nullptr;
      {
        std::unique_lock lock(mutex_);
        // The wait returns on a stop request too, true when items are still queued: stop anyway.
        if (!work_ready_.wait(lock, stop, [this] { return !queue_.empty(); }) || stop.stop_requested()) return;
        slot = queue_.front();
        queue_.pop_front();
      }
      // Not a catch-all that hides: the exception is handed to the consumer, which rethrows it
      // in order; letting it leave the thread would terminate the process instead.
      try {
        slot->out.emplace(work_(slot->in));
      } catch (...) {
        slot->error = std::current_exception();
      }
      {
        std::lock_guard lock(mutex_);
        slot->done = true;  // from here on the consumer may free the slot
      }
      result_ready_.notify_one();
    }
  }

  Work work_;
  mutable std::mutex mutex_;
  std::condition_variable_any work_ready_;  // _any: its wait ends on the jthread's stop request
  std::condition_variable result_ready_;
  std::deque<std::unique_ptr<Slot>> window_;  // every item not yet taken, in submission order
  std::deque<Slot*> queue_;                   // the items no worker has started, in submission order
  std::vector<std::jthread> threads_;
};

}  // namespace verify
