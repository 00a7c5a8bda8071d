#pragma once
// The spill rows of a self-training table, V3 (trainer_table.hpp):
//
//   spill;ram_band=0;tier=fast;codec=zstd;count=5;score_sum=4100;moved_bytes=10485760
//
// The leading "spill" tells them from the CPU/GPU rows; a V2 reader (the seed's loader) skips
// them as rows without its required keys.
#include <array>
#include <string>
#include <string_view>
#include <variant>

#include "hybrid/learning/spill_trainer.hpp"

namespace hybrid {

inline constexpr std::string_view kSpillRowTag = "spill;";
// The fields of a spill row (after the tag), all required, in the order the writer puts them.
inline constexpr std::array<std::string_view, 6> kSpillRowKeys{"ram_band", "tier", "codec", "count", "score_sum", "moved_bytes"};

[[nodiscard]] std::string format_spill_row(const SpillStatsEntry& e);
// A row (the line starts with kSpillRowTag), or why it is not one.
[[nodiscard]] std::variant<SpillStatsEntry, std::string> parse_spill_row(std::string_view line);

}  // namespace hybrid
