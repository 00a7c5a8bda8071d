#include "gpu/device_choice.hpp"

#include <charconv>

namespace gpu {

common::Result<DeviceChoice> parse_device(std::string_view text, std::string_view option) {
  const std::string where = std::string(option) + ": '" + std::string(text) + "'";
  if (text == "cpu") return DeviceChoice{DeviceChoice::Kind::cpu, 0};
  if (text == "cpu-launcher") return DeviceChoice{DeviceChoice::Kind::cpu_launcher, 0};
  if (text == "cuda") return DeviceChoice{DeviceChoice::Kind::cuda, 0};
  if (text.starts_with("cuda:")) {
    const std::string_view digits = text.substr(5);
    std::size_t index = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    // from_chars accepts a leading '-' for unsigned types as an error, never '+': digits only.
    if (digits.empty() || digits.front() < '0' || digits.front() > '9' || ec != std::errc() ||
        end != digits.data() + digits.size()) {
      return common::Error::malformed(where + ": the device index I of cuda:I must be plain decimal digits");
    }
    return DeviceChoice{DeviceChoice::Kind::cuda, index};
  }
  return common::Error::invalid_argument(where + " is not a device; expected cpu, cpu-launcher, cuda or cuda:I");
}

std::string device_name(const DeviceChoice& d) {
  switch (d.kind) {
    case DeviceChoice::Kind::cpu: return "cpu";
    case DeviceChoice::Kind::cpu_launcher: return "cpu-launcher";
    case DeviceChoice::Kind::cuda: return "cuda:" + std::to_string(d.index);
  }
  return "cpu";
}

}  // namespace gpu
