#include "nl/blas_threads.hpp"

#include <dlfcn.h>

namespace nl {

bool use_one_blas_thread() {
  using SetThreads = void (*)(int);
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set == nullptr) return false;
  set(1);
  return true;
}

}  // namespace nl
