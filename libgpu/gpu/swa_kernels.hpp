#pragma once
// Sliding-window attention on a backend (bodies in bodies/swa.hpp): the same contract as nl's
// swa_forward / swa_backward (the shape must be valid: nl::validate(SwaShape)).
#include <memory>
#include <span>
#include <vector>

#include "gpu/backend.hpp"
#include "nl/swa.hpp"
#include "nl/swa_kernel.hpp"

namespace gpu {

[[nodiscard]] nl::SwaForward<float> swa_forward(Backend& b, const nl::SwaShape& shape, std::span<const float> q,
                                                std::span<const float> k, std::span<const float> v);

struct SwaGrads {
  std::vector<float> q, k, v;  // s x d each
};
[[nodiscard]] SwaGrads swa_backward(Backend& b, const nl::SwaShape& shape, std::span<const float> q,
                                    std::span<const float> k, std::span<const float> v, std::span<const float> p,
                                    std::span<const float> ga);

// nl's SwaKernel seam served by the two above on `backend` (which must outlive it).
[[nodiscard]] std::unique_ptr<nl::SwaKernel> make_swa_kernel(Backend& backend);

}  // namespace gpu
