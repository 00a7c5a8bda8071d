#include <cuda_runtime_api.h>

#include "gpu/cuda/cuda_check.hpp"

namespace gpu {

std::string cuda_device_unusable() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) return "no CUDA device is present";
  if (e == cudaErrorInsufficientDriver) return "no CUDA driver (or one older than this CUDA runtime) is installed";
  if (e != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
  if (const cudaError_t s = cudaSetDevice(0); s != cudaSuccess) {
    return std::string("cudaSetDevice(0): ") + cudaGetErrorName(s) + ": " + cudaGetErrorString(s);
  }
  return {};
}

}  // namespace gpu
