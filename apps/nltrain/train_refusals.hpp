#pragma once
// nltrain train's refusals before it trains: flags that contradict each other or the run being
// resumed. Each is one error (exit code by its kind); nothing has been written when it comes.
#include <cstddef>

#include "common/result.hpp"
#include "train_options.hpp"

namespace nltrain::cli {

// The flags alone: two inputs on stdin, two outputs on stdout, --resume with flags that would
// change the run, --trace-out -, --threads 0.
[[nodiscard]] common::Status refuse_flags(const TrainOptions& o);

// Against the planned run of `batch` sequences per step: --batch changed on --resume, step
// receipts of a batched run.
[[nodiscard]] common::Status refuse_batch(const TrainOptions& o, std::size_t batch);

}  // namespace nltrain::cli
