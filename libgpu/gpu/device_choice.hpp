#pragma once
// Where nltrain's steps run (--device): nl's own forward and backward on the host ("cpu", the
// default), or each level's memory rule and the SWA block through libgpu's kernel pairs on the
// CPU launcher ("cpu-launcher") or on a CUDA device ("cuda", "cuda:I"). The choice is parsed here
// and installed behind nl's KernelPair and SwaKernel seams by install_device.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace gpu {

struct DeviceChoice {
  enum class Kind { cpu, cpu_launcher, cuda };
  Kind kind = Kind::cpu;
  std::size_t index = 0;  // the CUDA device (cuda:I); 0 otherwise
  [[nodiscard]] bool uses_kernels() const { return kind != Kind::cpu; }
  bool operator==(const DeviceChoice&) const = default;
};

// "cpu", "cpu-launcher", "cuda" (device 0) or "cuda:I" (I plain decimal digits). An unknown name
// is invalid_argument; an index that is not digits or too large, malformed. `option` names the
// flag in the message ("--device: ...").
[[nodiscard]] common::Result<DeviceChoice> parse_device(std::string_view text, std::string_view option);

// The canonical spelling: "cpu", "cpu-launcher", "cuda:I".
[[nodiscard]] std::string device_name(const DeviceChoice& d);

}  // namespace gpu
