#include "gpu/cuda/cublas_loader.hpp"

#include <dlfcn.h>

namespace gpu {

const Cublas& cublas() {
  static const Cublas instance = [] {
    Cublas c;
    void* lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
#ifdef SUITE_CUBLAS_PATH
    if (lib == nullptr) lib = dlopen(SUITE_CUBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
#endif
    if (lib == nullptr) {
      const char* why = dlerror();
      c.error = std::string("cannot load cuBLAS: ") + (why ? why : "libcublas.so.13 not found");
      return c;
    }
    auto create = reinterpret_cast<decltype(&cublasCreate_v2)>(dlsym(lib, "cublasCreate_v2"));
    c.sgemm = reinterpret_cast<decltype(&cublasSgemm_v2)>(dlsym(lib, "cublasSgemm_v2"));
    if (create == nullptr || c.sgemm == nullptr) {
      c.error = "cuBLAS lacks cublasCreate_v2 / cublasSgemm_v2";
      return c;
    }
    if (const cublasStatus_t s = create(&c.handle); s != CUBLAS_STATUS_SUCCESS) {
      c.handle = nullptr;
      c.error = "cublasCreate failed with status " + std::to_string(static_cast<int>(s));
    }
    return c;  // the library stays loaded for the process's lifetime
  }();
  return instance;
}

}  // namespace gpu
