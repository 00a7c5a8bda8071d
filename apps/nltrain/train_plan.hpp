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
  // Exactly one is set in a returned plan (a trainer has no empty state): the fp32 trainer, or
  // an --fp64 run's.
  std::optional<nl::Trainer> trainer;
  std::optional<nl::Trainer64> trainer64;
  nl::AdamWConfig opt;
  Corpus corpus;
  std::string out;  // the run directory written to
};

// A new run's model and initial parameters taken from a safetensors file (train --from,
// train_from.cpp): the file's configuration; --rule --levels --vocab --d --heads --schedule must match
// it, --seq-len --window --seed may change it; --config is refused.
struct StartingPoint {
  nl::MagConfig model;
  nl::MagParams<float> params;
};
[[nodiscard]] common::Result<StartingPoint> starting_point_from(const std::string& from, const ConfigFlags& flags);

// What the run reads: --data (empty: the embedded corpus) and --data-format (unset: bytes for a
// new run, the run's own on --resume).
struct DataFlags {
  std::string path;
  std::optional<std::string> format;
};

// From the flags (and `from` when not empty: starting_point_from); `out` empty: nltrain-run.
// `batch` sequences per step (train_batch.hpp): at least 1, at most the corpus's chunks, 1 under
// a learned schedule (invalid_argument otherwise). Every token id of the data must be below the
// model's vocab. `fp64`: the trainer is binary64 (its initial parameters the fp32 ones, widened).
[[nodiscard]] common::Result<TrainPlan> plan_new_run(const ConfigFlags& flags, std::optional<std::uint64_t> checkpoint_every,
                                                     std::uint64_t batch, const DataFlags& data, const std::string& out,
                                                     const std::string& from = {}, bool fp64 = false);
// From the checkpoint in `resume` (its batch and precision with it); `data.path` empty: the run's own; `out`
// empty: `resume`. `vocab` and `data.format`, when set, must be the run's (invalid_argument).
[[nodiscard]] common::Result<TrainPlan> plan_resumed_run(const std::string& resume, const DataFlags& data,
                                                         std::optional<std::size_t> vocab, const std::string& out);

}  // namespace nltrain::cli
