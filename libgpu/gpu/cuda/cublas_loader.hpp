#pragma once
// cuBLAS, loaded with dlopen at first use so binaries start where it is absent (it is a 700 MB
// shared library, unlike the statically linked runtime). Tries libcublas.so.13 on the loader's
// path, then the copy configure found (SUITE_CUBLAS_PATH, the PyPI wheel in the venv).
#include <cublas_v2.h>

#include <string>

namespace gpu {

struct Cublas {
  cublasHandle_t handle = nullptr;  // the probe's handle: set when the library works
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  std::string error;  // why it is not available (empty when it is)
};

// The process-wide instance (loaded once, thread-safe); check `handle` before use.
[[nodiscard]] const Cublas& cublas();

// This host thread's handle for the current device, bound to cudaStreamPerThread, so that a
// batch's worker threads multiply on their own streams (created at first use, destroyed when the
// thread ends). Throws GpuError when it cannot be created. Needs cublas().handle.
[[nodiscard]] cublasHandle_t cublas_thread_handle(int device);

}  // namespace gpu
