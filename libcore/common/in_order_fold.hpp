#pragma once
// The records of a line stream prepared on N threads and folded strictly in input order: the
// work a record needs alone (parse, its own checks, what it emits) runs in parallel, and what
// runs across records (bp verify multi's cross-record rules, bp import multi's stream facts and
// its receipts' order) sees them one at a time, as one thread would. bp verify multi --jobs and
// bp import <framework> multi --jobs both read this way.
//
// N threads for N jobs: the thread that offers the lines also prepares those its N - 1 workers
// do not need, and folds. A line goes to the workers while they have fewer than four lines each
// (done or not), so that they never wait for this thread: with 2 jobs on 2 cores, 2 and 3 lines
// left the worker idle more often (verify multi: about 1.45x and 1.6x one job against
// 1.6-1.75x), 5 and 6 left this thread too little to prepare. At most 4 records per job and
// kMaxBytesInFlight of lines are in flight (one record always goes), so memory stays flat in the
// number of records and a stream of huge records is not held many at a time.
//
// A prepared record is destroyed on the thread that prepared it, once folded: the allocator pays
// for frees on another thread, and the one thread that folds has the least time to spare. Item p
// of the pool runs on worker p mod W, so a worker's next item carries the records it prepared
// back to it.
//
// The first record whose fold says stop ends the folding, as it does with one job; an exception
// thrown while preparing surfaces when its record's turn comes, after every record before it.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/in_order_pool.hpp"

namespace common {

template <typename Prepared>
class InOrderFold {
 public:
  // Any thread: record `index` (0-based, the records offered before it), line `number` of the input.
  using Prepare = std::function<Prepared(std::string&& line, std::int64_t number, std::size_t index)>;
  // The offering thread, in input order; false: stop (the caller keeps why).
  using Fold = std::function<bool(Prepared&)>;

  static constexpr std::size_t kMaxBytesInFlight = std::size_t{16} * 1024 * 1024;
  static constexpr std::size_t kLinesPerJob = 4;  // in flight, and queued for each worker

  InOrderFold(std::size_t jobs, Prepare prepare, Fold fold)
      : prepare_(std::move(prepare)),
        fold_(std::move(fold)),
        workers_(jobs > 1 ? jobs - 1 : 0),
        spent_(workers_) {
    if (workers_ > 0) {
      pool_.emplace(workers_, [this](Pending& p) {
        p.spent.clear();
        return prepare_(std::move(p.text), p.number, p.index);
      });
    }
  }
  InOrderFold(const InOrderFold&) = delete;
  InOrderFold& operator=(const InOrderFold&) = delete;

  // The next record; `line` is taken. False once a fold said stop: nothing more is folded.
  bool offer(std::string& line, std::int64_t number) {
    if (stopped_) return false;
    const std::size_t index = offered_++;
    if (workers_ == 0) {
      Prepared p = prepare_(std::move(line), number, index);
      const bool go = fold_(p);
      stopped_ = !go;
      return go;
    }
    while (oldest_ready() ||
           (!window_.empty() && (window_.size() >= kLinesPerJob * (workers_ + 1) || bytes_ + line.size() > kMaxBytesInFlight))) {
      if (!fold_oldest()) return false;
    }
    InFlight entry{line.size(), std::nullopt, nullptr, pooled_ % workers_};
    if (pool_->in_flight() < kLinesPerJob * workers_) {
      pool_->submit({std::move(line), number, index, std::exchange(spent_[entry.worker], {})});
      ++pooled_;
    } else {
      try {
        entry.here.emplace(prepare_(std::move(line), number, index));
      } catch (...) {
        entry.thrown = std::current_exception();
      }
    }
    bytes_ += entry.bytes;
    window_.push_back(std::move(entry));
    return true;
  }

  // Every record offered and not yet folded, folded; false when a fold said stop.
  bool drain() {
    while (!stopped_ && !window_.empty()) fold_oldest();
    return !stopped_;
  }

 private:
  struct Pending {
    std::string text;
    std::int64_t number = 0;
    std::size_t index = 0;
    std::vector<Prepared> spent;  // this worker's records, folded: freed before it prepares
  };
  struct InFlight {
    std::size_t bytes = 0;
    std::optional<Prepared> here;  // prepared by this thread; empty: the pool's next result
    std::exception_ptr thrown;     // by this thread's prepare: rethrown in turn, as the pool's are
    std::size_t worker = 0;        // the pool's worker that prepares it
  };

  bool oldest_ready() const {
    return !window_.empty() && (window_.front().here || window_.front().thrown || pool_->next_ready());
  }

  bool fold_oldest() {
    InFlight oldest = std::move(window_.front());
    window_.pop_front();
    bytes_ -= oldest.bytes;
    if (oldest.thrown) std::rethrow_exception(oldest.thrown);
    Prepared p = oldest.here ? std::move(*oldest.here) : pool_->next();
    const bool go = fold_(p);
    if (!oldest.here) spent_[oldest.worker].push_back(std::move(p));
    stopped_ = !go;
    return go;
  }

  Prepare prepare_;
  Fold fold_;
  std::size_t workers_;
  std::vector<std::vector<Prepared>> spent_;  // by worker
  std::deque<InFlight> window_;               // in input order
  std::size_t bytes_ = 0, offered_ = 0, pooled_ = 0;
  bool stopped_ = false;
  // Last: destroyed first, so its workers are joined before what they use goes.
  std::optional<InOrderPool<Pending, Prepared>> pool_;
};

}  // namespace common
