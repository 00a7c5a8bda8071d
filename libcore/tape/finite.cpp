#include "tape/finite.hpp"

// As nl's per-token loops (nl/dense.hpp): off under AddressSanitizer, where an ifunc resolver
// may run before the sanitizer's runtime is up.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define TAPE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TAPE_VECTOR_CLONES
#endif

namespace tape::detail {

TAPE_VECTOR_CLONES bool all_finite_wide(const float* x, std::size_t n) { return all_finite_inline(x, n); }

}  // namespace tape::detail
