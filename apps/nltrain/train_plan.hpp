#pragma once
// What nltrain train starts from: a new run (configuration, corpus, fresh parameters) or a
// resumed one (checkpoint, its run record, the same corpus by SHA-256).
#include <cstdint>
#include <optional>
#include <string>

#include "cli_support.hpp"
#include "common/result.hpp"
#include "corpus.hpp"
#include "nl/adamw.hpp"
#include "nl/trainer.hpp"
#include "run_dir.hpp"

namespace nltrain::cli {

struct TrainPlan {
  RunRecord run;
  std::optional<nl::Trainer> trainer;  // always set in a returned plan (Trainer has no empty state)
  nl::AdamWConfig opt;
  Corpus corpus;
  std::string out;  // the run directory written to
};

// A new run's model and initial parameters taken from a safetensors file (train --from,
// train_from.cpp): the file's configuration; --rule --levels --d --heads --schedule must match
// it, --seq-len --window --seed may change it; --config is refused.
struct StartingPoint {
  nl::MagConfig model;
  nl::MagParams<float> params;
};
[[nodiscard]] common::Result<StartingPoint> starting_point_from(const std::string& from, const ConfigFlags& flags);

// From the flags (and `from` when not empty: starting_point_from); `data` empty: the embedded corpus; `out` empty: nltrain-run.
// `batch` sequences per step (train_batch.hpp): at least 1, at most the corpus's chunks, 1 under
// a learned schedule (invalid_argument otherwise).
[[nodiscard]] common::Result<TrainPlan> plan_new_run(const ConfigFlags& flags, std::optional<std::uint64_t> checkpoint_every,
                                                     std::uint64_t batch, const std::string& data, const std::string& out,
                                                     const std::string& from = {});
// From the checkpoint in `resume` (its batch with it); `data` empty: the run's own; `out` empty: `resume`.
[[nodiscard]] common::Result<TrainPlan> plan_resumed_run(const std::string& resume, const std::string& data,
                                                         const std::string& out);

}  // namespace nltrain::cli
