#pragma once
// CUDA runtime error handling shared by the launcher and the VRAM adapter (libgpu-internal: the
// only headers that include the runtime API live under gpu/cuda/).
#include <cuda_runtime_api.h>

#include <string>

#include "gpu/backend.hpp"

namespace gpu {

// Throws GpuError "<what>: <cudaGetErrorName>: <cudaGetErrorString>" unless e is cudaSuccess.
inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw GpuError(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
  }
}

// Empty when device `index` is usable; otherwise why not, in one line (no driver, driver too old
// for this runtime, no device, fewer devices than index + 1). The runtime is linked statically and
// loads libcuda.so.1 itself, so on a machine without a driver this is an error code, never a
// failure to start.
[[nodiscard]] std::string cuda_device_unusable(int index = 0);

}  // namespace gpu
