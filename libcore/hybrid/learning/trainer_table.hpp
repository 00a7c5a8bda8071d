#pragma once
// The self-training table on disk (APX 13.10.3): a versioned text file, one row per line,
//
//   ATENIA_SELFTRAINER_V2
//   gpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=3;success=3;score_sum=30;drift=0
//   episode=<32 hex digits>          (one per episode `atenia learn` took in; optional)
//   table_end;len=<bytes above this line>;crc32c=<CRC-32C of those bytes>
//
// V2 checks the body with CRC-32C; V1 (still read) had the same rows and a
// "checksum32=<FNV-1a>" trailer. V3 is V2 with spill rows ("spill;ram_band=...", after the
// CPU/GPU rows: spill_table_rows.hpp); a table is written as V3 only when it has spill rows,
// so a table without them stays a V2 file that older readers take as it is. The episode lines make `learn` idempotent: an episode whose
// key is listed is not counted again; the seed's loader skips them (no row keys).
// Rows are ordered by (gpu_avail, vram_band, ram_band, backend). The trailer is ours: the
// seed's loader skips it as a row without required keys; the strict reader of the tools
// refuses a table without one (cut short). Writes are atomic (temporary + rename).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/expected.hpp"
#include "common/file_system.hpp"
#include "common/result.hpp"
#include "hybrid/learning/self_trainer.hpp"
#include "hybrid/learning/spill_trainer.hpp"

namespace hybrid {

inline constexpr std::string_view kTrainerTableHeaderV3 = "ATENIA_SELFTRAINER_V3";
inline constexpr std::string_view kTrainerTableHeader = "ATENIA_SELFTRAINER_V2";
inline constexpr std::string_view kTrainerTableHeaderV1 = "ATENIA_SELFTRAINER_V1";
inline constexpr std::size_t kMaxTrainerTableBytes = std::size_t{64} << 20;

[[nodiscard]] std::string format_trainer_table(const SelfTrainer& trainer);

struct TableIssue {
  std::int64_t line = 0;  // 1-based
  std::string message;
};

// A table with the keys of the episodes it has taken in.
struct TrainerTable {
  SelfTrainer trainer;
  std::set<std::string> episodes;  // 32 lowercase hex digits each
  SpillTrainer spill;
};

[[nodiscard]] std::string format_trainer_table(const TrainerTable& table);

struct ParsedTable {
  SelfTrainer trainer;
  SpillTrainer spill;
  std::set<std::string> episodes;
  bool header_ok = false;                // false: the trainer is empty
  bool verified = false;                 // a trailer was present and matched
  std::vector<TableIssue> skipped;       // rows left out, with why
  std::vector<TableIssue> unknown_fields;  // rows kept whose fields the format lacks (the seed ignores them)
  std::optional<TableIssue> integrity;   // trailer present but length/checksum disagree
};

// Never fails: what cannot be read is reported in the result (best-effort, as the seed says).
[[nodiscard]] ParsedTable parse_trainer_table(std::string_view text);

// For tools: anything short of a clean table (missing file, wrong header, a bad row, a row
// with an unknown field, a missing trailer (a table cut short), a trailer mismatch) is an error naming the file
// and line.
[[nodiscard]] common::Result<SelfTrainer> read_trainer_table_strict(common::FileSystem& fs, const std::string& path);
[[nodiscard]] common::Result<TrainerTable> read_trainer_table_full(common::FileSystem& fs, const std::string& path);

// Replaces `path` atomically; creates no directory (the caller names an existing one). A table
// larger than `max_bytes` (by default what the readers above accept) is refused, invalid_argument,
// and `path` left as it was: a table that cannot be read back would lose every episode in it.
[[nodiscard]] common::Status write_trainer_table(common::FileSystem& fs, const TrainerTable& table,
                                                 const std::string& path,
                                                 std::size_t max_bytes = kMaxTrainerTableBytes);

}  // namespace hybrid
