#pragma once
// Installs a --device choice for this process: for cpu-launcher and cuda, every memory rule's
// kernel pair (kernel_pairs.hpp), the SWA kernel (swa_kernels.hpp) and the optimizer kernel
// (adamw_kernel.hpp) on that backend behind nl's seams, so the tape path (record_active,
// record_swa, record_head_loss and their VJPs) and the trainer's clip and AdamW run them; for cpu, none (nl's own
// code: the default bits). The hand-written backward (cms_backward) never uses them.
#include <string_view>

#include "common/result.hpp"
#include "gpu/device_choice.hpp"

namespace gpu {

// cuda without a usable device (built without CUDA, no driver, no such device): unsupported,
// with the backend's reason, and nothing installed. `option` names the flag in the message.
[[nodiscard]] common::Status install_device(const DeviceChoice& d, std::string_view option);

}  // namespace gpu
