#pragma once
// KernelPair: the seam through which an active memory level runs on another device (libgpu's CPU
// or CUDA launcher) instead of the rule's own forward and step_backward. nl knows only this
// interface; libgpu implements it and installs pairs. With none installed (the default) nothing
// changes. record_active() asks for the installed pair and saves its handle with the block, so
// the block's backward runs the same pair's backward even if another is installed meanwhile.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "nl/cache_packing.hpp"
#include "nl/level_params.hpp"
#include "nl/memory_rule.hpp"
#include "nl/rule_config.hpp"

namespace nl {

struct KernelChunk {
  std::vector<float> y;            // s x d
  std::vector<float> final_state;  // the level's context after the chunk
  PackedCache cache;               // whatever the pair's backward needs
};

// forward and backward may throw std::runtime_error when the device fails (libgpu's GpuError).
class KernelPair {
 public:
  virtual ~KernelPair() = default;
  [[nodiscard]] virtual std::string_view device() const = 0;  // "cpu", "cuda"
  [[nodiscard]] virtual KernelChunk forward(const RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                            const LevelParams<float>& p, std::span<const float> state0) const = 0;
  // The adjoints of x and of the level parameters, given the adjoint gy of y.
  [[nodiscard]] virtual ChunkGrads<float> backward(const RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                                   const LevelParams<float>& p, std::span<const float> cache_layout,
                                                   std::span<const float> cache_data,
                                                   std::span<const float> gy) const = 0;
};

struct InstalledPair {
  const KernelPair* pair;
  std::size_t handle;
};

// Installs `pair` for `kind` (replacing the previous one, which stays alive for blocks that still
// refer to it: installed pairs live until exit). Thread-safe. Returns the handle.
std::size_t install_kernel_pair(RuleKind kind, std::unique_ptr<KernelPair> pair);
// Back to the rule's own forward and backward for `kind`.
void uninstall_kernel_pair(RuleKind kind);
[[nodiscard]] std::optional<InstalledPair> installed_kernel_pair(RuleKind kind);
[[nodiscard]] const KernelPair* kernel_pair_by_handle(std::size_t handle);

}  // namespace nl
