#pragma once
// FloatArena: bump allocation of fp32 buffers in large shared chunks, so recording an op does
// not touch the heap (chunks are added as needed). Returned storage never moves and stays alive
// while any Tensor aliasing its chunk exists, even after the arena is gone.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace tape {

class FloatArena {
 public:
  struct Block {
    std::span<float> data;                 // the caller's to fill
    std::shared_ptr<const float[]> owner;  // shares ownership of the chunk, points at data
  };

  // Uninitialised storage for n floats, 32-byte aligned. Inline: every recorded op calls it.
  [[nodiscard]] Block allocate(std::size_t n) {
    const std::size_t need = (n == 0 ? kAlignFloats : n + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
    if (used_ + need > capacity_) [[unlikely]] add_chunk(need);  // also the first call (capacity_ 0)
    float* p = chunks_.back().get() + used_;
    used_ += need;
    return {std::span<float>(p, n), std::shared_ptr<const float[]>(chunks_.back(), p)};
  }
  [[nodiscard]] std::size_t bytes_reserved() const { return reserved_ * sizeof(float); }

 private:
  static constexpr std::size_t kChunkFloats = std::size_t{1} << 16;  // 256 KiB
  static constexpr std::size_t kAlignFloats = 8;                      // 32 bytes: one AVX register
  // Starts a chunk of at least `need` floats.
  void add_chunk(std::size_t need);
  std::vector<std::shared_ptr<float[]>> chunks_;
  std::size_t used_ = 0;      // floats used in chunks_.back()
  std::size_t capacity_ = 0;  // floats in chunks_.back()
  std::size_t reserved_ = 0;
};

}  // namespace tape
