#pragma once
// nltrain train --episodes F: one atenia episode per run (schemas/atenia-episode.v0.2.0.json,
// "decision": "spill"): the tier and codec the run spilled to, the machine's RAM pressure when it
// started, and what moving the caches measured over all its steps. Per run, not per step: the
// decision is made once per run, and one step's few milliseconds of I/O are mostly noise; ten
// steps' worth would also count one decision ten times. A run that moved nothing appends nothing
// (it measured no throughput); a run that failed appends nothing either.
#include <string>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "train_budget.hpp"

namespace nltrain::cli {

// The episode's record; its seconds are rounded to microseconds and its score computed from those
// rounded values, so atenia learn recomputes the very same score. Null when nothing moved.
[[nodiscard]] nlohmann::ordered_json spill_episode(const BudgetedSpill& spill);

// Appends the record to `path` (created when missing) under a lock on its directory: the file is
// read, the line added, and the whole written atomically (a crash leaves the old or the new file).
// `run_dir` is the run directory, whose lock this process already holds (an episodes file inside
// it is covered by that lock). Nothing without `path` or a store; io naming the file on failure.
[[nodiscard]] common::Status append_episode(const std::string& path, const BudgetedSpill& spill, const std::string& run_dir);

}  // namespace nltrain::cli
