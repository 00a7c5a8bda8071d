#pragma once
// A temp dir with a shared persistent cache root and checkpoint root, and managers over them.
#include <fstream>
#include <memory>
#include <string>

#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"
#include "support/temp_dir.hpp"

namespace testckpt {

struct Dirs {
  testsupport::TempDir tmp;
  std::string cache_root = tmp.file("pcache");
  std::string ckpt_root = tmp.file("ckpt");
  int managers = 0;

  // CPU-only manager (no VRAM) with the shared persistent cache attached.
  hybrid::HybridMemoryManager cpu_manager() {
    hybrid::HybridMemoryManager m(tmp.file("ssd" + std::to_string(managers++)));
    m.attach_persistent_cache(hybrid::PersistentHybridCache(cache_root));
    return m;
  }
  hybrid::HybridMemoryManager vram_manager() {
    hybrid::HybridMemoryManager m(tmp.file("ssd" + std::to_string(managers++)),
                                  std::make_unique<hybrid::FakeVramAdapter>());
    m.attach_persistent_cache(hybrid::PersistentHybridCache(cache_root));
    return m;
  }
  void put(const std::string& key, hybrid::Bytes bytes, hybrid::CacheKind kind = hybrid::CacheKind::tensor) {
    hybrid::PersistentHybridCache cache(cache_root);
    auto r = cache.put_blob(kind, key, bytes, 0, true);
    if (!r.ok()) throw std::runtime_error("put_blob failed: " + hybrid::to_string(r.error()));
  }
  void write_manifest_text(const std::string& text) {
    std::filesystem::create_directories(ckpt_root);
    std::ofstream(ckpt_root + "/checkpoint.meta", std::ios::binary) << text;
  }
};

inline const hybrid::Bytes* ram_bytes(const hybrid::HybridMemoryManager& m, const std::string& id) {
  const auto* ram = hybrid::as_ram(m.backing(id));
  return ram ? &ram->data : nullptr;
}

// One entry block of a hand-written (legacy-style, trailer-less) manifest.
inline std::string manifest_with(const std::string& entry_block, int count = 1) {
  return "version=1\ncreated_unix=7\nentry_count=" + std::to_string(count) + "\n\n" + entry_block;
}

}  // namespace testckpt
