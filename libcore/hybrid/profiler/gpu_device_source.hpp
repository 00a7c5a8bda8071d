#pragma once
// Where the profiler learns about GPUs: hybrid has no GPU code, so a device source (in practice
// the VRAM adapter, which derives from this) reports them. The profiler needs nothing else of
// the adapter, so it does not depend on hybrid/memory.
#include <vector>

#include "hybrid/profiler/hardware_types.hpp"

namespace hybrid {

class GpuDeviceSource {
 public:
  virtual ~GpuDeviceSource() = default;
  [[nodiscard]] virtual bool is_available() const = 0;
  // Devices behind this source. Default: none.
  [[nodiscard]] virtual std::vector<GpuCaps> devices() const { return {}; }
};

}  // namespace hybrid
