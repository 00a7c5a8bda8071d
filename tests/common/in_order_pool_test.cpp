// common/in_order_pool.hpp: results come back in submission order whatever order the workers
// finish in (random delays, and an item forced to finish after the one submitted behind it); an
// exception at any position reaches the consumer at that position, after every earlier result;
// destroying the pool with items queued and running returns.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <future>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/in_order_pool.hpp"

namespace {

using Pool = common::InOrderPool<int, int>;

void sleep_us(int us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); }

// Submits 0..n-1 with at most `window` in flight, taking results as the window fills and at the
// end, as verify_multi does; returns what next() gave, in the order it gave it.
std::vector<int> drive(Pool& pool, int n, std::size_t window) {
  std::vector<int> got;
  for (int i = 0; i < n; ++i) {
    while (pool.in_flight() >= window) got.push_back(pool.next());
    pool.submit(i);
  }
  while (pool.in_flight() > 0) got.push_back(pool.next());
  return got;
}

std::vector<int> squares(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i * i);
  return v;
}

}  // namespace

TEST_CASE("in_order_pool: results come back in submission order under random worker delays") {
  for (std::size_t threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    std::vector<int> delays(300);
    std::mt19937 rng(static_cast<unsigned>(threads));
    for (auto& d : delays) d = static_cast<int>(rng() % 400);
    Pool pool(threads, [&delays](int& i) {
      sleep_us(delays[static_cast<std::size_t>(i)]);
      return i * i;
    });
    CHECK(drive(pool, 300, 4 * threads) == squares(300));
  }
}

TEST_CASE("in_order_pool: an item that finishes after the one behind it is still given first") {
  // Item 0's work waits until item 1's is done, so the two finish out of order for certain, and
  // then lingers, so that a consumer taking results as they finish would take item 1's.
  std::promise<void> one_done;
  auto one_done_future = one_done.get_future();
  Pool pool(2, [&](int& i) {
    if (i == 0) {
      one_done_future.wait();
      sleep_us(20000);
    }
    if (i == 1) one_done.set_value();
    return i * i;
  });
  CHECK(drive(pool, 2, 2) == squares(2));
}

TEST_CASE("in_order_pool: an exception at any position arrives there, after every earlier result") {
  constexpr int kItems = 24;
  for (int bad = 0; bad < kItems; ++bad) {
    CAPTURE(bad);
    std::mt19937 rng(static_cast<unsigned>(bad));
    std::vector<int> delays(kItems);
    for (auto& d : delays) d = static_cast<int>(rng() % 300);
    std::vector<int> got;
    std::string caught;
    {
      Pool pool(3, [&delays, bad](int& i) {
        sleep_us(delays[static_cast<std::size_t>(i)]);
        if (i == bad || i == bad + 2) throw std::runtime_error("item " + std::to_string(i));
        return i * i;
      });
      try {
        got = drive(pool, kItems, 6);
      } catch (const std::runtime_error& e) {
        caught = e.what();
      }
      // The pool goes out of scope here with later items queued or running: it must return.
    }
    CHECK(caught == "item " + std::to_string(bad));
    CHECK(got.empty());  // drive() did not return
  }
}

TEST_CASE("in_order_pool: the results before a failing item are the ones a single thread gives") {
  constexpr int kItems = 16;
  for (int bad = 0; bad < kItems; ++bad) {
    CAPTURE(bad);
    std::vector<int> got;
    bool threw = false;
    {
      Pool pool(4, [bad](int& i) {
        sleep_us((kItems - i) * 50);  // later items finish first
        if (i == bad) throw std::runtime_error("bad");
        return i * i;
      });
      for (int i = 0; i < kItems; ++i) pool.submit(i);
      try {
        while (pool.in_flight() > 0) got.push_back(pool.next());
      } catch (const std::runtime_error&) {
        threw = true;
      }
    }
    CHECK(threw);
    CHECK(got == squares(bad));
  }
}

TEST_CASE("in_order_pool: destroying the pool drops the queued items and joins the running ones") {
  std::promise<void> started;
  auto started_future = started.get_future();
  std::atomic<int> ran{0};
  {
    Pool pool(2, [&](int& i) {
      if (i == 0) started.set_value();
      sleep_us(10000);
      ++ran;
      return i;
    });
    for (int i = 0; i < 50; ++i) pool.submit(i);
    started_future.wait();
  }
  const int after = ran.load();
  CHECK(after >= 1);   // item 0 was running and was finished, not abandoned mid-way
  CHECK(after < 50);   // the queued ones were not all run first
  sleep_us(20000);
  CHECK(ran.load() == after);  // and no worker is left running
}

TEST_CASE("in_order_pool: next_ready says whether the oldest item is done, without waiting") {
  // Item 0 waits for the test's go; item 1 is quick. next_ready stays false while item 0 runs,
  // although item 1 (not the oldest) is done, and turns true once item 0 is.
  std::promise<void> go;
  std::shared_future<void> released = go.get_future().share();
  std::atomic<bool> second_done{false};
  Pool pool(2, [&](int& i) {
    if (i == 0) released.wait();
    if (i == 1) second_done = true;
    return i + 10;
  });
  pool.submit(0);
  pool.submit(1);
  while (!second_done) sleep_us(50);
  sleep_us(2000);
  CHECK_FALSE(pool.next_ready());
  go.set_value();
  for (int spins = 0; spins < 20000 && !pool.next_ready(); ++spins) sleep_us(100);
  CHECK(pool.next_ready());
  CHECK(pool.next() == 10);
  CHECK(pool.next_ready());  // item 1 finished long ago
  CHECK(pool.next() == 11);
}

TEST_CASE("in_order_pool: a consumer that waits on quick items is always woken") {
  // Items that take no time make the consumer wait at the moment a worker finishes, over and
  // over: a wake-up lost between the consumer's last look at an item and its sleep would hang
  // here (the test's timeout fails it), and a result read before its item is done would differ.
  for (std::size_t threads : {1, 2, 3}) {
    CAPTURE(threads);
    Pool pool(threads, [](int& i) { return i * i; });
    for (std::size_t window : {std::size_t{1}, threads, 4 * threads}) {
      CAPTURE(window);
      CHECK(drive(pool, 20000, window) == squares(20000));
    }
  }
}
