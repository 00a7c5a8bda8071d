#pragma once
// nltrain train's options: train_options.cpp registers them with CLI11, cmd_train.cpp runs them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "receipt_stream.hpp"
#include "train_plan.hpp"

namespace nltrain::cli {

struct TrainOptions {
  ConfigFlags flags;
  DataFlags data;
  std::string out, resume, metrics, from, trace_out;
  std::optional<std::uint64_t> stop_at;
  std::optional<std::uint64_t> checkpoint_every;  // default 100
  std::optional<std::uint64_t> batch;             // default 1; on --resume, the run's
  std::optional<std::uint64_t> threads;           // default: the cores available
  std::optional<std::uint64_t> memory_budget;     // bytes; none: the caches stay in RAM
  std::string spill_codec = "zstd";               // zstd or none (--memory-budget's blobs)
  bool spill_codec_given = false;                 // said on the command line (--placement-table keeps it)
  std::vector<std::string> spill_tiers;           // LABEL=DIR each (spill_tiers.hpp)
  std::string placement_table, episodes;          // a learned table to place by; episodes appended
  ReceiptFlags receipts;
  bool force = false, quiet = false, json = false, metrics_timing = false;
  bool fp64 = false;  // the whole run in binary64 (hand-written backward; one process, no --memory-budget)
  std::string device = "cpu";  // --device: cpu, cpu-launcher, cuda[:I] (device_option.hpp); a run may change it on --resume
};

[[nodiscard]] int run_train(const TrainOptions& o);

}  // namespace nltrain::cli
