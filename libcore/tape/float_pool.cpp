#include "tape/float_pool.hpp"

#include <algorithm>
#include <utility>

namespace tape {

namespace {
// Whether this thread's pool exists: a buffer given back after the thread's pool was destroyed
// (a cache freed from a static at exit) is freed instead.
thread_local bool pool_alive = false;
}  // namespace

FloatPool& FloatPool::local() {
  thread_local FloatPool pool;
  // Made after the pool, so destroyed before it.
  thread_local struct Alive {
    Alive() { pool_alive = true; }
    ~Alive() { pool_alive = false; }
  } alive;
  return pool;
}

void FloatPool::give_local(std::vector<float>&& v) {
  if (pool_alive) local().give(std::move(v));
}

std::vector<float> FloatPool::take(std::size_t n) {
  const bool poolable = n >= kMinPooledFloats && n <= kMaxPooledFloats;
  if (poolable && std::find(wanted_.begin(), wanted_.end(), n) == wanted_.end()) {
    if (wanted_.size() == kMaxWantedSizes) wanted_.erase(wanted_.begin());
    wanted_.push_back(n);
  }
  // Exact sizes only: a step asks for the same sizes as the last one, and handing a larger
  // buffer to a smaller request would leave the larger request to allocate afresh.
  std::size_t found = free_.size();
  for (std::size_t i = 0; i < free_.size() && found == free_.size(); ++i) {
    if (free_[i].size() == n) found = i;
  }
  if (found == free_.size()) return std::vector<float>(n);
  std::vector<float> v = std::move(free_[found]);
  free_[found] = std::move(free_.back());
  free_.pop_back();
  bytes_ -= v.capacity() * sizeof(float);
  ++reuses_;
  return v;
}

void FloatPool::give(std::vector<float>&& v) {
  // Only sizes a take() asked for: the other fields of a cache would never be taken again.
  const std::size_t bytes = v.capacity() * sizeof(float);
  const bool wanted = std::find(wanted_.begin(), wanted_.end(), v.size()) != wanted_.end();
  if (!wanted || bytes_ + bytes > kMaxPooledBytes) return;  // v frees itself
  bytes_ += bytes;
  free_.push_back(std::move(v));
}

void FloatPool::fill(float value) {
  for (std::vector<float>& v : free_) std::fill(v.begin(), v.end(), value);
}

void FloatPool::clear() {
  free_.clear();
  free_.shrink_to_fit();
  bytes_ = 0;
}

}  // namespace tape
