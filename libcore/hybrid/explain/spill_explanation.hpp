#pragma once
// Why spill placement goes where it goes on this machine: the learned (tier, codec) choice for a
// RAM band and the evidence behind it, the mean KiB/s each choice's runs measured (atenia explain
// --spill; the rows come from nltrain's episodes through atenia learn).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hybrid/learning/spill_trainer.hpp"

namespace hybrid {

struct SpillEvidence {
  SpillDecision decision;
  std::uint32_t runs = 0;
  std::int64_t kib_per_s = 0;  // the runs' mean
  std::uint64_t moved_bytes = 0;
};

struct SpillExplanation {
  std::uint8_t ram_band = 0;
  SpillEvidence recommended;
  std::vector<SpillEvidence> evidence;  // every learned choice of the band, fastest first
  std::string explanation;              // one sentence
};

// None when the band has no learned run. The recommendation is SpillTrainer::recommend's; the
// evidence is ordered by mean KiB/s descending, then runs descending, then (tier, codec).
[[nodiscard]] std::optional<SpillExplanation> explain_spill(const SpillTrainer& trainer, std::uint8_t ram_band);

}  // namespace hybrid
