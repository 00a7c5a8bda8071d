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
#include "train_options.hpp"

namespace nltrain::cli {

// Null without --memory-budget. Refuses (invalid_argument, "--memory-budget: ...") a budget of 0,
// one below the step's working set (naming the bytes needed), and a run split across processes;
// RUN/spill as a link (io). A batch's sequences run min(--threads, B) at once, each in its own
// share of the budget. Call with the run directory locked. `observer` (may be null) is told each
// cache's move out and back.
[[nodiscard]] common::Result<std::unique_ptr<nl_store::SpillStore>> open_budget(const TrainOptions& o, const std::string& out,
                                                                               const nl::Trainer& trainer, bool shared_batch,
                                                                               nl::StepObserver* observer = nullptr);

// Adds the step's "memory" object (schemas/nltrain-metrics.v0.1.0.json) when there is a store:
// budget, bytes moved out and back, stored on disk, peak resident; with `timing`, the seconds.
void add_spill_cost(nlohmann::ordered_json& line, nl_store::SpillStore* store, bool timing);

}  // namespace nltrain::cli
