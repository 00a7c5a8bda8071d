#pragma once
// APX 13.9.1: per-tensor placement hints a checkpoint carries across runs: the tier a tensor
// should go back to and the one-line summary of the plan that last placed it.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "hybrid/memory/memory_tier.hpp"

namespace hybrid {

class PlacementHints {
 public:
  void set_desired_tier(std::string_view id, std::optional<MemoryTier> tier);
  [[nodiscard]] std::optional<MemoryTier> desired_tier(std::string_view id) const;
  void set_last_plan_summary(std::string_view id, std::optional<std::string> summary);
  [[nodiscard]] std::optional<std::string> last_plan_summary(std::string_view id) const;
  // Forgets both hints of `id`.
  void erase(std::string_view id);

 private:
  struct Hints {
    std::optional<MemoryTier> desired_tier;
    std::optional<std::string> last_plan_summary;
  };
  Hints& slot(std::string_view id);

  std::map<std::string, Hints, std::less<>> hints_;
};

}  // namespace hybrid
