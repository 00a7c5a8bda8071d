// The global operator new of the tools when they are linked with mimalloc (apps/CMakeLists.txt).
// mimalloc's shared library exports operator new too, and it aborts when memory runs out (it is
// built as C, without exceptions), where the tools promise one line and exit 2 ("bp: out of
// memory"). Defined here, in the executable, these win over the library's: they take memory from
// malloc (mimalloc's) and throw std::bad_alloc as the standard says. The deletes stay mimalloc's,
// which free any block its malloc gave.
#include <cstdlib>
#include <new>

namespace {

void* allocate(std::size_t n) {
  if (n == 0) n = 1;
  for (;;) {
    if (void* p = std::malloc(n)) return p;
    const std::new_handler h = std::get_new_handler();
    if (h == nullptr) throw std::bad_alloc();
    h();
  }
}

void* allocate_aligned(std::size_t n, std::align_val_t al) {
  const auto align = static_cast<std::size_t>(al);
  if (n == 0) n = 1;
  for (;;) {
    void* p = nullptr;
    if (posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align, n) == 0) return p;
    const std::new_handler h = std::get_new_handler();
    if (h == nullptr) throw std::bad_alloc();
    h();
  }
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, std::align_val_t al) { return allocate_aligned(n, al); }
void* operator new[](std::size_t n, std::align_val_t al) { return allocate_aligned(n, al); }
