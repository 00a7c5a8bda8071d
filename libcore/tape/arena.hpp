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

  // Uninitialised storage for n floats, 32-byte aligned.
  [[nodiscard]] Block allocate(std::size_t n);
  [[nodiscard]] std::size_t bytes_reserved() const { return reserved_ * sizeof(float); }

 private:
  static constexpr std::size_t kChunkFloats = std::size_t{1} << 16;  // 256 KiB
  std::vector<std::shared_ptr<float[]>> chunks_;
  std::size_t used_ = 0;      // floats used in chunks_.back()
  std::size_t capacity_ = 0;  // floats in chunks_.back()
  std::size_t reserved_ = 0;
};

}  // namespace tape
