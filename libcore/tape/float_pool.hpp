#pragma once
// A per-thread pool of large float vectors, so that a training loop does not allocate, zero and
// page-fault its biggest buffers on every step: the rules' (s+1)-state caches (libcore/nl takes
// them in the forward; the record gives them back when the tape frees it) and the tape's
// gradient accumulators. Contents of a reused vector are whatever the last user left: whoever
// takes one writes every element before reading it. Only sizes that take() was asked for, from
// kMinPooledFloats to kMaxPooledFloats, are kept; each thread keeps at most kMaxPooledBytes (the
// rest is freed as usual) and frees it all when the thread ends. Larger buffers are left to
// malloc on purpose: glibc raises its mmap threshold when such a buffer is freed, which then
// serves every allocation below it from the heap; a pool that never freed them kept the
// threshold low and made every mid-sized allocation fault (d = 128 ran 15% slower).
#include <cstddef>
#include <type_traits>
#include <vector>

namespace tape {

class FloatPool {
 public:
  // Below glibc's default mmap threshold (128 KiB) malloc reuses freed memory without faults.
  static constexpr std::size_t kMinPooledFloats = std::size_t{1} << 15;  // 128 KiB
  static constexpr std::size_t kMaxPooledBytes = std::size_t{64} << 20;
  static constexpr std::size_t kMaxPooledFloats = std::size_t{1} << 18;  // 1 MiB

  FloatPool() = default;
  FloatPool(const FloatPool&) = delete;
  FloatPool& operator=(const FloatPool&) = delete;

  // The calling thread's pool.
  [[nodiscard]] static FloatPool& local();
  // local().give(v), or v freed when this thread's pool is already gone (thread or process exit).
  static void give_local(std::vector<float>&& v);

  // A vector of n floats: a pooled one of that size (unspecified contents) when there is one,
  // else a new, zeroed one.
  [[nodiscard]] std::vector<float> take(std::size_t n);
  // Keeps v for a later take when a take asked for its size (else, or when the pool is full,
  // v is freed).
  void give(std::vector<float>&& v);
  void clear();
  // Overwrites every pooled vector with `value` (as glibc's M_PERTURB does for freed memory): a
  // NaN here makes a forward that reads a cache element before writing it fail its checks.
  void fill(float value);

  [[nodiscard]] std::size_t pooled_bytes() const { return bytes_; }
  [[nodiscard]] std::size_t reuses() const { return reuses_; }

 private:
  static constexpr std::size_t kMaxWantedSizes = 16;
  std::vector<std::vector<float>> free_;  // few entries: a handful of levels' caches
  std::vector<std::size_t> wanted_;       // the sizes take() was asked for, oldest first
  std::size_t bytes_ = 0;
  std::size_t reuses_ = 0;
};

// The rule templates' way in: float vectors come from the pool, double ones (the fp64 checks)
// are plain zeroed vectors.
template <typename T>
[[nodiscard]] std::vector<T> take_cache_buffer(std::size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return FloatPool::local().take(n);
  } else {
    return std::vector<T>(n);
  }
}

}  // namespace tape
