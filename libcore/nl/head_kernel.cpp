#include "nl/head_kernel.hpp"

#include "nl/kernel_slot.hpp"

namespace nl {
namespace {

KernelSlot<HeadKernel>& head_slot() {
  static KernelSlot<HeadKernel> slot;
  return slot;
}

}  // namespace

std::size_t install_head_kernel(std::unique_ptr<HeadKernel> kernel) { return head_slot().install(std::move(kernel)); }

void uninstall_head_kernel() { head_slot().uninstall(); }

std::optional<InstalledHead> installed_head_kernel() {
  const auto a = head_slot().active();
  if (!a) return std::nullopt;
  return InstalledHead{a->first, a->second};
}

const HeadKernel* head_kernel_by_handle(std::size_t handle) { return head_slot().by_handle(handle); }

}  // namespace nl
