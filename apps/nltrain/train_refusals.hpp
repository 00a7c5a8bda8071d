#pragma once
// nltrain train's refusals before it trains: flags that contradict each other or the run being
// resumed. Each is one error (exit code by its kind); nothing has been written when it comes.
#include <cstddef>
#include <cstdint>

#include "common/result.hpp"
#include "train_options.hpp"

namespace nltrain::cli {

// The flags alone: two inputs on stdin, two outputs on stdout, --resume with flags that would
// change the run, --trace-out -, --threads 0, --fp64 with --memory-budget.
[[nodiscard]] common::Status refuse_flags(const TrainOptions& o);

// Against the planned run of `batch` sequences per step: --batch changed on --resume, step
// receipts of a batched run.
[[nodiscard]] common::Status refuse_batch(const TrainOptions& o, std::size_t batch);

// --stop-at beyond the run's planned `steps`, or not after the trainer's `step`.
[[nodiscard]] common::Status refuse_stop_at(const TrainOptions& o, std::uint64_t steps, std::uint64_t step);

// --fp64 against the planned run (`fp64`: its trainer is binary64): on --resume the run's
// precision must be restated, never changed (an fp32 run does not continue in fp64, nor the
// other way round).
[[nodiscard]] common::Status refuse_precision(const TrainOptions& o, bool fp64);

}  // namespace nltrain::cli
