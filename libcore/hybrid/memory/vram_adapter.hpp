#pragma once
// APX 13.2.2: the seam to a VRAM backend. hybrid never includes a GPU header; libgpu
// implements this interface. It is also the hardware profiler's GpuDeviceSource. NullVramAdapter is the default: no VRAM, every call fails with
// unsupported (the backend is unavailable), and the memory manager degrades VRAM placements to RAM.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "hybrid/memory/move_error.hpp"
#include "hybrid/memory/storage_backing.hpp"
#include "hybrid/profiler/gpu_device_source.hpp"

namespace hybrid {

class VramAdapter : public GpuDeviceSource {
 public:
  [[nodiscard]] virtual common::Status upload(std::string_view id, std::span<const std::uint8_t> data) = 0;
  [[nodiscard]] virtual common::Result<Bytes> download(std::string_view id) = 0;
  [[nodiscard]] virtual common::Status free(std::string_view id) = 0;
};

inline constexpr const char* kVramAdapterNotAvailable = "VRAM adapter not available";

class NullVramAdapter final : public VramAdapter {
 public:
  [[nodiscard]] bool is_available() const override { return false; }
  [[nodiscard]] common::Status upload(std::string_view, std::span<const std::uint8_t>) override;
  [[nodiscard]] common::Result<Bytes> download(std::string_view) override;
  [[nodiscard]] common::Status free(std::string_view) override;
};

}  // namespace hybrid
