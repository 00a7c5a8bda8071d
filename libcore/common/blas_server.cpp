#include "common/blas_server.hpp"

#include <dlfcn.h>

// Defined again, strong, by a tool that loads its BLAS on first use.
extern "C" [[gnu::weak]] void suite_load_blas() {}

namespace common {

void load_blas() noexcept { suite_load_blas(); }

bool end_idle_blas_threads() noexcept {
  // OpenBLAS's blas_thread_shutdown (Fortran-style name): joins the workers and marks the server
  // as not running, so that the next multi-threaded call starts it again.
  using Shutdown = int (*)();
  auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"));
  if (shutdown == nullptr) return false;
  return shutdown() == 0;
}

}  // namespace common
