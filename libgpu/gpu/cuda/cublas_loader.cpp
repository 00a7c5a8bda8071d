#include "gpu/cuda/cublas_loader.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <map>

#include "gpu/backend.hpp"

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
    c.create = reinterpret_cast<decltype(&cublasCreate_v2)>(dlsym(lib, "cublasCreate_v2"));
    c.destroy = reinterpret_cast<decltype(&cublasDestroy_v2)>(dlsym(lib, "cublasDestroy_v2"));
    c.set_stream = reinterpret_cast<decltype(&cublasSetStream_v2)>(dlsym(lib, "cublasSetStream_v2"));
    c.sgemm = reinterpret_cast<decltype(&cublasSgemm_v2)>(dlsym(lib, "cublasSgemm_v2"));
    if (c.create == nullptr || c.destroy == nullptr || c.set_stream == nullptr || c.sgemm == nullptr) {
      c.error = "cuBLAS lacks cublasCreate_v2 / cublasDestroy_v2 / cublasSetStream_v2 / cublasSgemm_v2";
      return c;
    }
    if (const cublasStatus_t s = c.create(&c.handle); s != CUBLAS_STATUS_SUCCESS) {
      c.handle = nullptr;
      c.error = "cublasCreate failed with status " + std::to_string(static_cast<int>(s));
    }
    return c;  // the library stays loaded for the process's lifetime
  }();
  return instance;
}

cublasHandle_t cublas_thread_handle(int device) {
  struct Handles {
    std::map<int, cublasHandle_t> by_device;
    ~Handles() {
      for (auto& [dev, h] : by_device) {
        (void)cudaSetDevice(dev);
        (void)cublas().destroy(h);  // at process exit the runtime may be gone: nothing to report
      }
    }
  };
  thread_local Handles handles;
  auto it = handles.by_device.find(device);
  if (it != handles.by_device.end()) return it->second;
  const Cublas& c = cublas();
  cublasHandle_t h = nullptr;
  if (const cublasStatus_t s = c.create(&h); s != CUBLAS_STATUS_SUCCESS) {
    throw GpuError("cublasCreate failed with status " + std::to_string(static_cast<int>(s)));
  }
  if (const cublasStatus_t s = c.set_stream(h, cudaStreamPerThread); s != CUBLAS_STATUS_SUCCESS) {
    (void)c.destroy(h);
    throw GpuError("cublasSetStream failed with status " + std::to_string(static_cast<int>(s)));
  }
  handles.by_device.emplace(device, h);
  return h;
}

}  // namespace gpu
