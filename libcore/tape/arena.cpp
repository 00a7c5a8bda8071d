#include "tape/arena.hpp"

#include <new>

namespace tape {
namespace {

constexpr std::size_t kAlignFloats = 8;  // 32 bytes: one AVX register

constexpr std::size_t round_up(std::size_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }

}  // namespace

FloatArena::Block FloatArena::allocate(std::size_t n) {
  const std::size_t need = round_up(n == 0 ? 1 : n);
  if (chunks_.empty() || used_ + need > capacity_) {
    const std::size_t cap = need > kChunkFloats ? need : kChunkFloats;
    // Uninitialised on purpose: every op writes its whole output before anyone reads it.
    float* raw = static_cast<float*>(::operator new[](cap * sizeof(float), std::align_val_t{32}));
    chunks_.emplace_back(raw, [](float* p) { ::operator delete[](p, std::align_val_t{32}); });
    used_ = 0;
    capacity_ = cap;
    reserved_ += cap;
  }
  float* p = chunks_.back().get() + used_;
  used_ += need;
  return {std::span<float>(p, n), std::shared_ptr<const float[]>(chunks_.back(), p)};
}

}  // namespace tape
