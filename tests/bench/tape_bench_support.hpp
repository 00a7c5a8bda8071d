#pragma once
// Shared by the tape benchmarks: the clock their in-run ratios use, and the small-op chain that
// tape_backward_bench and tape_torch_bench time (tests/tape/torch/autograd_timing.py mirrors it).
#include <ctime>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/tape.hpp"

namespace tapebench {

// CPU time of the calling thread: on a shared, loaded machine wall time also counts the time
// other processes hold the core, which is not ours.
[[nodiscard]] inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Op i of the chain on 8-element tensors: mul by c, add c, sigmoid, scale by 1.5, repeating.
[[nodiscard]] inline tape::Tensor chain_step(int i, const tape::Tensor& y, const tape::Tensor& c) {
  switch (i % 4) {
    case 0: return tape::ops::mul(y, c);
    case 1: return tape::ops::add(y, c);
    case 2: return tape::ops::sigmoid(y);
    default: return tape::ops::scale(y, 1.5f);
  }
}

}  // namespace tapebench
