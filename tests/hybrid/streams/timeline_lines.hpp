#pragma once
// Test-only helpers to pick lines out of an AsyncExecutor timeline.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace hybrid::testing {

inline std::vector<std::string> lines_starting(const std::vector<std::string>& timeline, std::string_view prefix) {
  std::vector<std::string> out;
  for (const auto& l : timeline) {
    if (l.starts_with(prefix)) out.push_back(l);
  }
  return out;
}

inline bool has_line_containing(const std::vector<std::string>& timeline, std::string_view a,
                                std::string_view b = {}) {
  return std::ranges::any_of(timeline, [&](const std::string& l) {
    return l.find(a) != std::string::npos && l.find(b) != std::string::npos;
  });
}

// Index of the first line containing both fragments, or -1.
inline long index_of(const std::vector<std::string>& timeline, std::string_view a, std::string_view b = {}) {
  for (std::size_t i = 0; i < timeline.size(); ++i) {
    if (timeline[i].find(a) != std::string::npos && timeline[i].find(b) != std::string::npos) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

}  // namespace hybrid::testing
