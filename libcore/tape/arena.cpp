#include "tape/arena.hpp"

#include <new>

namespace tape {

void FloatArena::add_chunk(std::size_t need) {
  const std::size_t cap = need > kChunkFloats ? need : kChunkFloats;
  // Uninitialised on purpose: every op writes its whole output before anyone reads it.
  float* raw = static_cast<float*>(::operator new[](cap * sizeof(float), std::align_val_t{32}));
  chunks_.emplace_back(raw, [](float* p) { ::operator delete[](p, std::align_val_t{32}); });
  used_ = 0;
  capacity_ = cap;
  reserved_ += cap;
}

}  // namespace tape
