#pragma once
// Measured CPU rates for the simulator's kernel model: sustained single-precision GFLOP/s of a
// BLAS matrix product (with the threads BLAS uses, as a CPU kernel would) and RAM bandwidth
// in GB/s of a large copy (bytes read plus bytes written). Each is the best of a few short
// runs (tens of milliseconds in all); a figure that cannot be measured stays absent.
#include <optional>

namespace hybrid {

struct CpuRates {
  std::optional<float> gflops;
  std::optional<float> mem_gb_s;
};

[[nodiscard]] CpuRates measure_cpu_rates();

}  // namespace hybrid
