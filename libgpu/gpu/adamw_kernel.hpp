#pragma once
// nltrain's outer optimizer on a backend: nl's OptimizerKernel seam served by the bodies in
// bodies/adamw.hpp (the global norm's partials, ReduceRowsF64, the AdamW update), with the
// moments resident in the backend's memory between steps.
#include <memory>
#include <span>

#include "gpu/backend.hpp"
#include "nl/optimizer_kernel.hpp"

namespace gpu {

// The sum of squares of g in the device's fixed order (bodies/adamw.hpp), as one call: upload,
// partials, reduction, one double back.
[[nodiscard]] double sum_of_squares(Backend& b, std::span<const float> g);

// The OptimizerKernel on `backend` (which must outlive it).
[[nodiscard]] std::unique_ptr<nl::OptimizerKernel> make_optimizer_kernel(Backend& backend);

}  // namespace gpu
