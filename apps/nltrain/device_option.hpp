#pragma once
// --device (train and gradcheck): where the steps run; gpu::parse_device reads it and
// gpu::install_device puts libgpu's kernels behind nl's seams for this process.
#include <string>

#include "common/result.hpp"

namespace nltrain::cli {

inline constexpr const char* kDeviceHelp =
    "Where the memory rules and SWA run: cpu (nl's own code, the default), cpu-launcher (libgpu's kernel pairs on "
    "the CPU launcher) or cuda[:I] (on CUDA device I, default 0; exit 2 when it is not usable)";

// Parses and installs `text`; `fp64_training`: an --fp64 run, which only cpu serves (the kernels
// are fp32).
[[nodiscard]] common::Status use_device(const std::string& text, bool fp64_training);

// What receipts record in kernels.device: the canonical name of a device that runs libgpu's
// kernels ("cpu-launcher", "cuda:I"), empty for cpu and for a value use_device refuses.
[[nodiscard]] std::string receipt_device(const std::string& text);

}  // namespace nltrain::cli
