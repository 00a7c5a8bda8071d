#include "gpu/cuda_vram.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"

namespace gpu {

std::unique_ptr<hybrid::VramAdapter> detect_vram_adapter() {
  if (auto cuda = make_cuda_vram_adapter()) return cuda;
  return std::make_unique<hybrid::FakeVramAdapter>();
}

}  // namespace gpu
