#include <cuda_runtime_api.h>

#include <string>

#include "gpu/cuda/cuda_check.hpp"

namespace gpu {

std::string cuda_device_unusable(int index) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) return "no CUDA device is present";
  if (e == cudaErrorInsufficientDriver) return "no CUDA driver (or one older than this CUDA runtime) is installed";
  if (e != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
  if (index >= n) {
    return "CUDA device " + std::to_string(index) + " does not exist (this machine has " + std::to_string(n) +
           (n == 1 ? ": device 0)" : ": devices 0.." + std::to_string(n - 1) + ")");
  }
  if (const cudaError_t s = cudaSetDevice(index); s != cudaSuccess) {
    return "cudaSetDevice(" + std::to_string(index) + "): " + cudaGetErrorName(s) + ": " + cudaGetErrorString(s);
  }
  return {};
}

}  // namespace gpu
