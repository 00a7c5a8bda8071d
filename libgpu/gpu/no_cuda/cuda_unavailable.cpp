// Built when configure found no CUDA compiler: the CUDA backend and VRAM adapter say so.
#include "gpu/backend.hpp"
#include "gpu/cuda_vram.hpp"

namespace gpu {

bool cuda_compiled() { return false; }

const CudaProbe& cuda_backend() {
  static const CudaProbe probe{nullptr, "libgpu was built without CUDA (no nvcc at configure time)"};
  return probe;
}

const CudaProbe& cuda_backend_on(std::size_t) { return cuda_backend(); }

std::unique_ptr<hybrid::VramAdapter> make_cuda_vram_adapter(std::string* reason) {
  if (reason) *reason = cuda_backend().reason;
  return nullptr;
}

}  // namespace gpu
