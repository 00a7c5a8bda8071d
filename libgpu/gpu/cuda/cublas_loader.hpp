#pragma once
// cuBLAS, loaded with dlopen at first use so binaries start where it is absent (it is a 700 MB
// shared library, unlike the statically linked runtime). Tries libcublas.so.13 on the loader's
// path, then the copy configure found (SUITE_CUBLAS_PATH, the PyPI wheel in the venv).
#include <cublas_v2.h>

#include <string>

namespace gpu {

struct Cublas {
  cublasHandle_t handle = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  std::string error;  // why it is not available (empty when it is)
};

// The process-wide instance (loaded once, thread-safe); check `handle` before use.
[[nodiscard]] const Cublas& cublas();

}  // namespace gpu
