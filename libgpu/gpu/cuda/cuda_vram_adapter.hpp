#pragma once
// CudaVramAdapter (APX 13.2.2 on CUDA): each id is one cudaMalloc'd block on device 0. Bytes move
// through two pinned staging buffers on a private stream: the host copies chunk n+1 into one
// buffer while the DMA engine moves chunk n out of the other (cudaMemcpyAsync, one event per
// buffer). Failures map to common::Error: a missing or broken device or driver is unsupported
// (as is an unknown id, like the fake adapter); a failed allocation or copy is io.
#include <cuda_runtime_api.h>

#include <array>
#include <map>
#include <mutex>
#include <string>

#include "hybrid/memory/vram_adapter.hpp"

namespace gpu {

class CudaVramAdapter final : public hybrid::VramAdapter {
 public:
  static constexpr std::size_t kStagingBytes = std::size_t{4} << 20;

  CudaVramAdapter();  // device 0 must be usable (cuda_device_unusable() empty); throws GpuError otherwise
  ~CudaVramAdapter() override;
  CudaVramAdapter(const CudaVramAdapter&) = delete;
  CudaVramAdapter& operator=(const CudaVramAdapter&) = delete;

  [[nodiscard]] bool is_available() const override { return true; }
  [[nodiscard]] common::Status upload(std::string_view id, std::span<const std::uint8_t> data) override;
  [[nodiscard]] common::Result<hybrid::Bytes> download(std::string_view id) override;
  [[nodiscard]] common::Status free(std::string_view id) override;
  [[nodiscard]] std::vector<hybrid::GpuCaps> devices() const override;

 private:
  struct Block {
    void* ptr = nullptr;
    std::size_t bytes = 0;
  };
  [[nodiscard]] cudaError_t copy_in(std::uint8_t* dev, std::span<const std::uint8_t> src);
  [[nodiscard]] cudaError_t copy_out(std::uint8_t* dst, const std::uint8_t* dev, std::size_t n);

  mutable std::mutex mu_;
  std::map<std::string, Block, std::less<>> blocks_;
  cudaStream_t stream_ = nullptr;
  std::array<void*, 2> staging_{};
  std::array<cudaEvent_t, 2> done_{};
};

}  // namespace gpu
