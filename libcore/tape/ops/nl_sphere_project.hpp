#pragma once
// SphereProjectNormalize (Lattice OSR): each of m_slots rows of length d is projected onto the
// unit sphere, S[i] / ||S[i]||. A slot whose norm is <= 1e-8 has no direction; it is kept
// unchanged and its VJP is the identity (specs/nltrain-math.md §9, O-7).
#include <cstddef>
#include <span>

#include "tape/tape.hpp"

namespace tape::ops {

inline constexpr double kSphereProjectEps = 1e-8;

// Traced op on s of shape [m_slots, d] (Shape::rows/cols). Records a CustomOp
// ("SphereProjectNormalize") that saves the slot norms.
[[nodiscard]] Tensor sphere_project_normalize(const Tensor& s);

// Writes out (m_slots*d) and slot_norms (m_slots) = ||S[i]|| before projection
// (slot_norms may be empty when no VJP will run).
template <typename T>
void sphere_project_forward(std::span<const T> s, std::size_t m_slots, std::size_t d, std::span<T> out,
                            std::span<T> slot_norms);

// Accumulates d_s += J^T d_out from the saved output (unit rows) and slot norms.
template <typename T>
void sphere_project_backward(std::span<const T> out, std::span<const T> slot_norms, std::span<const T> d_out,
                             std::size_t m_slots, std::size_t d, std::span<T> d_s);

}  // namespace tape::ops
