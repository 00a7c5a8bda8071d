#include "common/worker_pool.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

TEST_CASE("worker_pool: every task runs once, on as many threads as asked") {
  for (std::size_t threads : {1, 2, 3}) {
    common::WorkerPool pool(threads);
    CHECK(pool.threads() == threads);
    for (std::size_t n : {0, 1, 5, 64}) {
      std::vector<std::atomic<int>> runs(n);
      pool.run(n, [&](std::size_t i) { runs[i].fetch_add(1); });
      for (std::size_t i = 0; i < n; ++i) CHECK(runs[i].load() == 1);
    }
  }
}

TEST_CASE("worker_pool: a pool of 1 runs inline, in index order") {
  common::WorkerPool pool(1);
  std::vector<std::size_t> order;
  const std::thread::id caller = std::this_thread::get_id();
  bool all_inline = true;
  pool.run(4, [&](std::size_t i) {
    order.push_back(i);
    all_inline = all_inline && std::this_thread::get_id() == caller;
  });
  CHECK(order == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(all_inline);
}

TEST_CASE("worker_pool: tasks run on more than one thread when there are several") {
  common::WorkerPool pool(2);
  // Each task waits (bounded) until two tasks are in flight at once: only two threads can get there.
  std::atomic<int> in_flight{0}, peak{0};
  std::mutex mu;
  std::set<std::thread::id> ids;
  pool.run(2, [&](std::size_t) {
    const int now = in_flight.fetch_add(1) + 1;
    peak.store(std::max(peak.load(), now));
    for (int spin = 0; spin < 2000 && in_flight.load() < 2; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    peak.store(std::max(peak.load(), in_flight.load()));
    {
      std::lock_guard lock(mu);
      ids.insert(std::this_thread::get_id());
    }
    in_flight.fetch_sub(1);
  });
  CHECK(peak.load() == 2);
  CHECK(ids.size() == 2);
}

TEST_CASE("worker_pool: the lowest failing index's exception reaches the caller after all tasks ran") {
  common::WorkerPool pool(3);
  std::atomic<int> ran{0};
  auto call = [&] {
    pool.run(9, [&](std::size_t i) {
      ran.fetch_add(1);
      if (i == 4 || i == 7) throw std::runtime_error("task " + std::to_string(i));
    });
  };
  CHECK_THROWS_WITH(call(), "task 4");
  CHECK(ran.load() == 9);
  // The pool still works afterwards.
  std::atomic<int> again{0};
  pool.run(3, [&](std::size_t) { again.fetch_add(1); });
  CHECK(again.load() == 3);
}

TEST_CASE("worker_pool: available_cores is at least 1") { CHECK(common::available_cores() >= 1); }
