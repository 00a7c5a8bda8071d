#pragma once
// The last line of nltrain train: text, or with --json one object
// (schemas/nltrain-train-result.v0.1.0.json) whose top level depends only on the run, with the
// wall clock apart under "timing", so a seeded run's summary is a golden like its metrics.
#include <cstdint>
#include <optional>
#include <string>

#include "nl/mag_config.hpp"
#include "nl/step_error.hpp"

namespace nltrain::cli {

struct TrainSummary {
  enum class Status { trained, interrupted, complete };
  Status status = Status::trained;
  std::uint64_t first = 0, step = 0, planned = 0;  // steps first..step of `planned`
  float first_loss = 0, last_loss = 0;
  double tokens_per_s = 0, model_s = 0, outside_s = 0;
  std::string checkpoint, out;
};

[[nodiscard]] std::string summary_json(const TrainSummary& s);
[[nodiscard]] std::string summary_text(const TrainSummary& s, const nl::MagConfig& cfg);

// The line (with its newline) a failed step n ends the run with; `saved`: the step of the last
// good checkpoint in `out`, none when no checkpoint was written.
[[nodiscard]] std::string step_failed_line(std::uint64_t n, const nl::StepError& e, std::optional<std::uint64_t> saved,
                                           const std::string& out);

}  // namespace nltrain::cli
