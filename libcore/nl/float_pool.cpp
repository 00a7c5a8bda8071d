#include "nl/float_pool.hpp"

#include <algorithm>
#include <utility>

namespace nl {

FloatPool& FloatPool::local() {
  thread_local FloatPool pool;
  return pool;
}

std::vector<float> FloatPool::take(std::size_t n) {
  if (n >= kMinPooledFloats && std::find(wanted_.begin(), wanted_.end(), n) == wanted_.end()) {
    if (wanted_.size() == kMaxWantedSizes) wanted_.erase(wanted_.begin());
    wanted_.push_back(n);
  }
  // Best fit: the smallest pooled vector that holds n, so one level's cache does not take the
  // buffer a larger level needs next.
  std::size_t best = free_.size();
  for (std::size_t i = 0; i < free_.size(); ++i) {
    if (free_[i].size() >= n && (best == free_.size() || free_[i].size() < free_[best].size())) best = i;
  }
  if (best == free_.size()) return std::vector<float>(n);
  std::vector<float> v = std::move(free_[best]);
  free_[best] = std::move(free_.back());
  free_.pop_back();
  bytes_ -= v.capacity() * sizeof(float);
  ++reuses_;
  v.resize(n);  // shrinking: no allocation, no fill
  return v;
}

void FloatPool::give(std::vector<float>&& v) {
  // Only sizes a take() asked for: the other fields of a cache would never be taken again.
  const std::size_t bytes = v.capacity() * sizeof(float);
  const bool wanted = std::find(wanted_.begin(), wanted_.end(), v.size()) != wanted_.end();
  if (!wanted || bytes_ + bytes > kMaxPooledBytes) return;  // v frees itself
  v.resize(v.capacity());  // whole capacity usable by a later take (fills only what was never used)
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

}  // namespace nl
