#pragma once
// Small helpers shared by the hybrid memory tests.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace memory_test {

inline hybrid::Bytes pattern(std::size_t n, std::uint8_t seed = 7) {
  hybrid::Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 31 + (i >> 8));
  return b;
}

// The RAM bytes of `id`, or nullptr when it is not RAM-backed.
inline const hybrid::Bytes* ram_bytes(const hybrid::HybridMemoryManager& m, std::string_view id) {
  const auto* r = hybrid::as_ram(m.backing(id));
  return r ? &r->data : nullptr;
}

inline std::string ssd_path(const hybrid::HybridMemoryManager& m, std::string_view id) {
  const auto* s = hybrid::as_ssd(m.backing(id));
  return s ? s->path : std::string();
}

inline hybrid::Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return hybrid::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const std::string& path, const hybrid::Bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

}  // namespace memory_test
