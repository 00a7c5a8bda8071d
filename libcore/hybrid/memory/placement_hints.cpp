#include "hybrid/memory/placement_hints.hpp"

namespace hybrid {

PlacementHints::Hints& PlacementHints::slot(std::string_view id) {
  auto it = hints_.find(id);
  if (it == hints_.end()) it = hints_.emplace(std::string(id), Hints{}).first;
  return it->second;
}

void PlacementHints::set_desired_tier(std::string_view id, std::optional<MemoryTier> tier) {
  slot(id).desired_tier = tier;
}

std::optional<MemoryTier> PlacementHints::desired_tier(std::string_view id) const {
  auto it = hints_.find(id);
  return it == hints_.end() ? std::nullopt : it->second.desired_tier;
}

void PlacementHints::set_last_plan_summary(std::string_view id, std::optional<std::string> summary) {
  slot(id).last_plan_summary = std::move(summary);
}

std::optional<std::string> PlacementHints::last_plan_summary(std::string_view id) const {
  auto it = hints_.find(id);
  return it == hints_.end() ? std::nullopt : it->second.last_plan_summary;
}

void PlacementHints::erase(std::string_view id) {
  if (auto it = hints_.find(id); it != hints_.end()) hints_.erase(it);
}

}  // namespace hybrid
