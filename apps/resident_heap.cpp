// The tools' way of building resident data (common/resident_heap.hpp) when they are linked with
// mimalloc (apps/CMakeLists.txt): a heap of the calling thread's own, set as its default while the
// data is built. mimalloc lets only its thread allocate from a heap, so each thread that builds
// gets one, kept for the thread's life (mimalloc hands its blocks to the thread's main heap when
// the thread ends; they stay valid).
#include <mimalloc.h>

#include "common/resident_heap.hpp"

namespace {

void build_in_own_heap(const std::function<void()>& build) {
  thread_local mi_heap_t* const heap = mi_heap_new();
  if (heap == nullptr) {  // out of memory for the heap itself: build as if none were installed
    build();
    return;
  }
  struct Restore {
    mi_heap_t* previous;
    ~Restore() { mi_heap_set_default(previous); }
  } restore{mi_heap_set_default(heap)};
  build();
}

[[maybe_unused]] const bool installed = (common::install_resident_runner(&build_in_own_heap), true);

}  // namespace
