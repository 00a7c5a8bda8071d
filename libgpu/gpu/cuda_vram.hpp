#pragma once
// The CUDA VRAM adapter behind hybrid::VramAdapter, and the choice atenia makes with it. Callers
// see only the hybrid interface; the CUDA runtime stays inside libgpu.
#include <memory>
#include <string>

#include "hybrid/memory/vram_adapter.hpp"

namespace gpu {

// A CudaVramAdapter on device 0 when the CUDA launcher was compiled and a device is usable;
// otherwise null, with the reason (one line) in *reason when given.
[[nodiscard]] std::unique_ptr<hybrid::VramAdapter> make_cuda_vram_adapter(std::string* reason = nullptr);

// The CUDA adapter where a GPU is present, else hybrid::FakeVramAdapter (the in-process stand-in).
[[nodiscard]] std::unique_ptr<hybrid::VramAdapter> detect_vram_adapter();

}  // namespace gpu
