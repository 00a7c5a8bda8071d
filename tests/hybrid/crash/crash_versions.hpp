#pragma once
// What generation g of each file looks like, shared by the writer (which loops over g) and
// the checker (which accepts any complete generation, never a mix). Lengths change with g so
// a torn write cannot pass as a version.
#include <cstdint>
#include <string>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/learning/self_trainer.hpp"
#include "hybrid/memory/storage_backing.hpp"

namespace crashtest {

inline constexpr int kBlobs = 3;

inline std::string blob_key(int i) { return "blob" + std::to_string(i); }

inline hybrid::Bytes blob_payload(std::uint64_t g, int i) {
  hybrid::Bytes b(64 + (g * 37 + static_cast<std::uint64_t>(i) * 11) % 4000);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<std::uint8_t>((g * 131 + k * 7 + i) & 0xFF);
  return b;
}

inline hybrid::HybridCheckpoint manifest_version(std::uint64_t g) {
  hybrid::HybridCheckpoint cp;
  cp.created_unix = g;
  for (std::uint64_t j = 0; j <= g % 6; ++j) {
    hybrid::CheckpointEntry e;
    e.id = 't' + std::to_string(j);
    e.tier = j % 2 ? hybrid::MemoryTier::ssd : hybrid::MemoryTier::ram;
    e.len_bytes = g * 10 + j;
    e.cache_kind = hybrid::CacheKind::tensor;
    e.cache_key = hybrid::tensor_cache_key(e.id, e.len_bytes);
    e.last_plan_summary = "generation " + std::to_string(g);
    cp.entries.push_back(e);
  }
  return cp;
}

// One row per generation's worth of episodes; count == g identifies the version.
inline hybrid::SelfTrainer table_version(std::uint64_t g) {
  hybrid::SelfTrainer t;
  const auto n = static_cast<std::uint32_t>(g);
  t.set_stats_entry({true, 0, 0}, hybrid::BackendChoice::gpu, {n, n / 2, static_cast<std::int64_t>(g) * 3, n / 3});
  if (g % 2) t.set_stats_entry({false, 1, 2}, hybrid::BackendChoice::cpu, {n, n, -static_cast<std::int64_t>(g), 0});
  return t;
}

}  // namespace crashtest
