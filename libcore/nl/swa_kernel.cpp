#include "nl/swa_kernel.hpp"

#include "nl/kernel_slot.hpp"

namespace nl {
namespace {

KernelSlot<SwaKernel>& swa_slot() {
  static KernelSlot<SwaKernel> slot;
  return slot;
}

}  // namespace

std::size_t install_swa_kernel(std::unique_ptr<SwaKernel> kernel) { return swa_slot().install(std::move(kernel)); }

void uninstall_swa_kernel() { swa_slot().uninstall(); }

std::optional<InstalledSwa> installed_swa_kernel() {
  const auto a = swa_slot().active();
  if (!a) return std::nullopt;
  return InstalledSwa{a->first, a->second};
}

const SwaKernel* swa_kernel_by_handle(std::size_t handle) { return swa_slot().by_handle(handle); }

}  // namespace nl
