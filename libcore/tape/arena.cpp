#include "tape/arena.hpp"

#include <new>
#include <vector>

namespace tape {
namespace {

constexpr std::align_val_t kAlign{32};

float* new_chunk(std::size_t floats) { return static_cast<float*>(::operator new[](floats * sizeof(float), kAlign)); }
void delete_chunk(float* p) { ::operator delete[](p, kAlign); }

// Standard-size chunks freed on this thread, for the next tape's arena: a training loop makes a
// tape per step, and fresh chunks would be page-faulted in (and out) every time. Bounded; the
// rest is freed, and all of it when the thread ends.
class ChunkCache {
 public:
  static constexpr std::size_t kMaxChunks = 64;  // 16 MiB
  ChunkCache() { alive = true; }
  ~ChunkCache() {
    alive = false;
    for (float* p : free_) delete_chunk(p);
  }
  // A chunk can outlive its thread's cache (a Tensor in a static freed at exit): then it is freed.
  static thread_local bool alive;
  float* take() {
    if (free_.empty()) return new_chunk(FloatArena::kChunkFloats);
    float* p = free_.back();
    free_.pop_back();
    return p;
  }
  void give(float* p) {
    if (free_.size() < kMaxChunks) {
      free_.push_back(p);
    } else {
      delete_chunk(p);
    }
  }

 private:
  std::vector<float*> free_;
};

thread_local bool ChunkCache::alive = false;
thread_local ChunkCache chunk_cache;

void return_chunk(float* p) {
  if (ChunkCache::alive) {
    chunk_cache.give(p);
  } else {
    delete_chunk(p);
  }
}

}  // namespace

void FloatArena::add_chunk(std::size_t need) {
  // Uninitialised on purpose: every op writes its whole output before anyone reads it.
  if (need <= kChunkFloats) {
    chunks_.emplace_back(chunk_cache.take(), return_chunk);
    capacity_ = kChunkFloats;
  } else {
    chunks_.emplace_back(new_chunk(need), delete_chunk);
    capacity_ = need;
  }
  used_ = 0;
  reserved_ += capacity_;
}

}  // namespace tape
