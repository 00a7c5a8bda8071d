#include "gpu/install_device.hpp"

#include <string>

#include "gpu/adamw_kernel.hpp"
#include "gpu/backend.hpp"
#include "gpu/head_loss_kernels.hpp"
#include "gpu/kernel_pairs.hpp"
#include "gpu/swa_kernels.hpp"
#include "nl/head_kernel.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/optimizer_kernel.hpp"
#include "nl/swa_kernel.hpp"

namespace gpu {

common::Status install_device(const DeviceChoice& d, std::string_view option) {
  Backend* backend = nullptr;
  switch (d.kind) {
    case DeviceChoice::Kind::cpu: break;
    case DeviceChoice::Kind::cpu_launcher: backend = &cpu_backend(); break;
    case DeviceChoice::Kind::cuda: {
      const CudaProbe& probe = cuda_backend_on(d.index);
      if (probe.backend == nullptr) return common::Error::unsupported(std::string(option) + ": " + device_name(d) + " is not usable here: " + probe.reason);
      backend = probe.backend;
      break;
    }
  }
  for (nl::RuleKind kind : nl::kAllRuleKinds) {
    if (backend != nullptr && has_kernel_pair(kind)) {
      (void)nl::install_kernel_pair(kind, make_kernel_pair(kind, *backend));
    } else {
      nl::uninstall_kernel_pair(kind);
    }
  }
  if (backend != nullptr) {
    (void)nl::install_swa_kernel(make_swa_kernel(*backend));
    (void)nl::install_head_kernel(make_head_kernel(*backend));
    nl::install_optimizer_kernel(make_optimizer_kernel(*backend));
  } else {
    nl::uninstall_swa_kernel();
    nl::uninstall_head_kernel();
    nl::uninstall_optimizer_kernel();
  }
  return {};
}

}  // namespace gpu
