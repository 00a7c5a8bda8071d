#pragma once
// nltrain train --memory-budget: the run's spill store (nl_store/spill_store.hpp) and the cost it
// adds to each metrics line. Without the option nothing here runs and the metrics bytes are as
// before.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "nl/trainer.hpp"
#include "nl_store/spill_store.hpp"
#include "rank_share.hpp"
#include "train_options.hpp"

namespace nltrain::cli {

// The run's spill store with what it needs beside it: the test hook's slow file system (when it
// names the chosen tier; it outlives the store) and the machine's RAM pressure at open (the
// context of the run's episode and of --placement-table's choice).
struct BudgetedSpill {
  std::unique_ptr<common::FileSystem> slow_fs;
  std::unique_ptr<nl_store::SpillStore> store;
  float ram_pressure = 0.0F;
  std::string codec;     // the store's codec as --spill-codec names it: "zstd" or "none"
  bool learned = false;  // the tier and codec came from --placement-table (spill_tiers.hpp)
  [[nodiscard]] nl_store::SpillStore* get() const { return store.get(); }
};

// No store without --memory-budget (and then --spill-tier, --placement-table and --episodes are
// refused: invalid_argument naming the option). Refuses (invalid_argument, "--memory-budget: ...")
// a budget of 0 and one below the step's working set (naming the bytes needed); RUN/spill or a
// tier's directory as a link (io). The tier and codec: spill_tiers.hpp. A batch's sequences run
// min(--threads, B) at once, each in its own share of the budget. Call with the run directory
// locked. `observer` (may be null) is told each cache's move out and back.
// Under mpirun (`share`; every rank calls it): each process has the whole budget for its own
// streams, sized for the most streams a rank has (ceil(B / R)), rank r > 0 in RUN/spill-rank<r>
// (or its tier's directory's -rank<r>); the first rank's refusal is every rank's.
[[nodiscard]] common::Result<BudgetedSpill> open_budget(const TrainOptions& o, const std::string& out, const nl::Trainer& trainer,
                                                        RankShare* share, nl::StepObserver* observer = nullptr);

// Adds the step's "memory" object (schemas/nltrain-metrics.v0.1.0.json) when there is a store:
// budget, bytes moved out and back, stored on disk, peak resident, the tier and codec the spills
// go to and whether --placement-table chose them; with `timing`, the seconds.
void add_spill_cost(nlohmann::ordered_json& line, const BudgetedSpill& spill, bool timing);

}  // namespace nltrain::cli
