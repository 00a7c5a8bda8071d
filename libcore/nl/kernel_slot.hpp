#pragma once
// KernelSlot: the registry behind a one-kernel seam (SwaKernel, HeadKernel). Installed kernels are
// kept by handle until exit, because a recorded block keeps the handle of the kernel that ran its
// forward and its backward must find that kernel even after another was installed.
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace nl {

template <typename Kernel>
class KernelSlot {
 public:
  std::size_t install(std::unique_ptr<Kernel> kernel) {
    std::lock_guard lock(mu_);
    all_.push_back(std::move(kernel));
    active_ = all_.size() - 1;
    return *active_;
  }
  void uninstall() {
    std::lock_guard lock(mu_);
    active_.reset();
  }
  // The active kernel and its handle.
  [[nodiscard]] std::optional<std::pair<const Kernel*, std::size_t>> active() {
    std::lock_guard lock(mu_);
    if (!active_) return std::nullopt;
    return std::pair<const Kernel*, std::size_t>{all_[*active_].get(), *active_};
  }
  [[nodiscard]] const Kernel* by_handle(std::size_t handle) {
    std::lock_guard lock(mu_);
    return handle < all_.size() ? all_[handle].get() : nullptr;
  }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<Kernel>> all_;  // by handle; never shrinks
  std::optional<std::size_t> active_;
};

}  // namespace nl
