#pragma once
// ContextMemory: each CMS level's memory state carried across chunks (nltrain-math §5). An
// active level starts its chunk from it and leaves its final state in it; a frozen level only
// reads it. No gradient flows into it (truncated at chunk boundaries, O-17).
#include <cstddef>
#include <vector>

#include "nl/mag_config.hpp"

namespace nl {

template <typename T>
struct ContextMemory {
  std::vector<std::vector<T>> levels;

  // Every level at the rule's initial state (O-4); also what reset() restores.
  [[nodiscard]] static ContextMemory initial(const MagConfig& cfg);
  void reset(const MagConfig& cfg) { *this = initial(cfg); }
};

extern template struct ContextMemory<float>;
extern template struct ContextMemory<double>;

}  // namespace nl
