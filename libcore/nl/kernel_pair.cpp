#include "nl/kernel_pair.hpp"

#include <array>
#include <mutex>

namespace nl {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<KernelPair>> all;  // by handle; never shrinks
  std::array<std::optional<std::size_t>, std::size(kAllRuleKinds)> active;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

std::size_t install_kernel_pair(RuleKind kind, std::unique_ptr<KernelPair> pair) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.all.push_back(std::move(pair));
  const std::size_t handle = r.all.size() - 1;
  r.active[static_cast<std::size_t>(kind)] = handle;
  return handle;
}

void uninstall_kernel_pair(RuleKind kind) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.active[static_cast<std::size_t>(kind)].reset();
}

std::optional<InstalledPair> installed_kernel_pair(RuleKind kind) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  const auto h = r.active[static_cast<std::size_t>(kind)];
  if (!h) return std::nullopt;
  return InstalledPair{r.all[*h].get(), *h};
}

const KernelPair* kernel_pair_by_handle(std::size_t handle) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  return handle < r.all.size() ? r.all[handle].get() : nullptr;
}

}  // namespace nl
