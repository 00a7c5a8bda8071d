#include "nl/optimizer_kernel.hpp"

#include <mutex>
#include <vector>

namespace nl {
namespace {

struct OptimizerRegistry {
  std::mutex mu;
  std::vector<std::unique_ptr<OptimizerKernel>> all;  // never shrinks: moments may live on any
  const OptimizerKernel* active = nullptr;
};

OptimizerRegistry& optimizer_registry() {
  static OptimizerRegistry r;
  return r;
}

}  // namespace

void install_optimizer_kernel(std::unique_ptr<OptimizerKernel> kernel) {
  OptimizerRegistry& r = optimizer_registry();
  std::lock_guard lock(r.mu);
  r.all.push_back(std::move(kernel));
  r.active = r.all.back().get();
}

void uninstall_optimizer_kernel() {
  OptimizerRegistry& r = optimizer_registry();
  std::lock_guard lock(r.mu);
  r.active = nullptr;
}

const OptimizerKernel* installed_optimizer_kernel() {
  OptimizerRegistry& r = optimizer_registry();
  std::lock_guard lock(r.mu);
  return r.active;
}

}  // namespace nl
