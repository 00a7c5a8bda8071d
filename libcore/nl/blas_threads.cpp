#include "nl/blas_threads.hpp"

#include <dlfcn.h>

#include "common/blas_server.hpp"

namespace nl {

bool use_one_blas_thread() {
  common::load_blas();
  using SetThreads = void (*)(int);
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set == nullptr) return false;
  set(1);
  return true;
}

}  // namespace nl
