#include "device_option.hpp"

#include "gpu/install_device.hpp"

namespace nltrain::cli {

common::Status use_device(const std::string& text, bool fp64_training) {
  auto d = gpu::parse_device(text, "--device");
  if (!d.ok()) return d.error();
  if (fp64_training && d->uses_kernels()) {
    return common::Error::invalid_argument("--device " + text + ": libgpu's kernels are fp32; an --fp64 run trains on --device cpu");
  }
  return gpu::install_device(*d, "--device");
}

std::string receipt_device(const std::string& text) {
  auto d = gpu::parse_device(text, "--device");
  return d.ok() && d->uses_kernels() ? gpu::device_name(*d) : std::string();
}

}  // namespace nltrain::cli
