#include "nl/swa_kernel.hpp"

#include <mutex>
#include <vector>

namespace nl {
namespace {

struct SwaRegistry {
  std::mutex mu;
  std::vector<std::unique_ptr<SwaKernel>> all;  // by handle; never shrinks
  std::optional<std::size_t> active;
};

SwaRegistry& swa_registry() {
  static SwaRegistry r;
  return r;
}

}  // namespace

std::size_t install_swa_kernel(std::unique_ptr<SwaKernel> kernel) {
  SwaRegistry& r = swa_registry();
  std::lock_guard lock(r.mu);
  r.all.push_back(std::move(kernel));
  r.active = r.all.size() - 1;
  return *r.active;
}

void uninstall_swa_kernel() {
  SwaRegistry& r = swa_registry();
  std::lock_guard lock(r.mu);
  r.active.reset();
}

std::optional<InstalledSwa> installed_swa_kernel() {
  SwaRegistry& r = swa_registry();
  std::lock_guard lock(r.mu);
  if (!r.active) return std::nullopt;
  return InstalledSwa{r.all[*r.active].get(), *r.active};
}

const SwaKernel* swa_kernel_by_handle(std::size_t handle) {
  SwaRegistry& r = swa_registry();
  std::lock_guard lock(r.mu);
  return handle < r.all.size() ? r.all[handle].get() : nullptr;
}

}  // namespace nl
