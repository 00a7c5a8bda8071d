#include "hybrid/autograd/grad_persistence.hpp"

namespace hybrid {

namespace {

// The gradient's bytes once it is in RAM, moving it there from VRAM; nullptr when that is not
// possible (unknown, SSD/CPU resident, no RAM bytes, failed move).
const RamBacking* ram_bytes_of(HybridMemoryManager& mem, const std::string& id) {
  const std::optional<MemoryTier> tier = mem.get_tier(id);
  if (tier == MemoryTier::vram) {
    auto plan = mem.plan_move(id, MemoryTier::ram, empty_memory_snapshot());
    if (!plan || !mem.apply_move(id, *plan)) return nullptr;
  } else if (tier != MemoryTier::ram) {
    return nullptr;
  }
  return as_ram(mem.backing(id));
}

}  // namespace

CacheResult<GradPersistReport> persist_grads_after_backward(HybridMemoryManager& mem,
                                                            std::span<const std::string> grad_ids,
                                                            std::uint64_t created_unix) {
  GradPersistReport report;
  for (const auto& id : grad_ids) {
    const RamBacking* ram = ram_bytes_of(mem, id);
    if (ram == nullptr) {
      ++report.skipped;
      continue;
    }
    const Bytes bytes = ram->data;  // the cache call may not alias the manager's storage
    if (auto put = mem.gradients().persist(id, bytes, created_unix, true); !put) return put.error();
    ++report.saved;
  }
  return report;
}

std::size_t warm_grads_before_backward(HybridMemoryManager& mem, std::span<const std::string> grad_ids) {
  std::size_t restored = 0;
  for (const auto& id : grad_ids) {
    if (mem.get_tier(id)) continue;
    auto bytes = mem.gradients().restore(id);
    if (!bytes) continue;
    if (mem.register_tensor_with_data(id, std::move(*bytes), MemoryTier::ram)) ++restored;
  }
  return restored;
}

}  // namespace hybrid
