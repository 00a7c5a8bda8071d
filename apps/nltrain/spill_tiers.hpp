#pragma once
// nltrain train's spill tiers: where --memory-budget's caches go (--spill-tier LABEL=DIR,
// repeatable; default one tier "ssd", RUN/spill) and which tier and codec a run uses: the first
// tier named and --spill-codec, unless --placement-table holds a learned choice for this machine's
// RAM band among the tiers named (atenia learn on nltrain's --episodes).
#include <string>
#include <vector>

#include "common/file_system.hpp"
#include "common/result.hpp"

namespace nltrain::cli {

struct SpillTier {
  std::string label;
  std::string dir;  // empty: RUN/spill
};

// Each "LABEL=DIR": a label of 1..32 of a-z 0-9 _ - (not starting with _ or -), a directory
// (trailing '/' dropped), each label once. None: the one default tier. invalid_argument
// ("--spill-tier: ...") otherwise.
[[nodiscard]] common::Result<std::vector<SpillTier>> parse_spill_tiers(const std::vector<std::string>& specs);

struct SpillChoice {
  SpillTier tier;
  std::string codec;   // "zstd" or "none"
  bool learned = false;  // from --placement-table (else the default: first tier, --spill-codec)
};

// `table` empty: the default. Otherwise the table (a self-training table, V3 for spill rows) is
// read strictly and its best (tier, codec) for `ram_band` among the tiers named is taken; with
// `codec_given` only that codec is a candidate. A table without such a choice: the default.
[[nodiscard]] common::Result<SpillChoice> choose_spill_tier(const std::vector<SpillTier>& tiers, const std::string& codec,
                                                            bool codec_given, const std::string& table, std::uint8_t ram_band);

// The test hook NLTRAIN_TEST_SLOW_TIER=LABEL:MS: tier LABEL's file system sleeps MS milliseconds
// per MiB written or read (common/throttled_file_system.hpp), so a test has two tiers of known
// speed on one disk. Null when unset or naming another tier; invalid_argument when malformed.
[[nodiscard]] common::Result<std::unique_ptr<common::FileSystem>> slow_tier_hook(const std::string& label);

}  // namespace nltrain::cli
