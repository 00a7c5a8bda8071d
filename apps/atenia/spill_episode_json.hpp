#pragma once
// atenia learn's reader of a spill episode (schemas/atenia-episode.v0.2.0.json, the record with
// "decision": "spill"; nltrain train --episodes writes them).
#include <string>

#include "cli_support.hpp"
#include "hybrid/learning/spill_episode.hpp"

namespace atenia::cli {

// Strict: unknown keys, wrong types, a tier label outside 1..32 of a-z 0-9 _ -, a codec other
// than zstd or none, negative or non-finite seconds, a score that is not the bytes over the
// seconds (spill_score) are malformed, naming the file, line and JSON pointer.
[[nodiscard]] common::Result<hybrid::SpillEpisode> parse_spill_episode(const common::JsonlRecord& rec, const std::string& file);

}  // namespace atenia::cli
