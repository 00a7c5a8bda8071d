#include "tape/ops/nl_sphere_project.hpp"

#include <cassert>
#include <cmath>

#include "tape/ops/nl_row_norm_op.hpp"

namespace tape::ops {

template <typename T>
void sphere_project_forward(std::span<const T> s, std::size_t m_slots, std::size_t d, std::span<T> out,
                            std::span<T> slot_norms) {
  assert(s.size() == m_slots * d && out.size() == s.size() && (slot_norms.empty() || slot_norms.size() == m_slots));
  for (std::size_t i = 0; i < m_slots; ++i) {
    const T* si = s.data() + i * d;
    T* o = out.data() + i * d;
    T sq = 0;
    for (std::size_t j = 0; j < d; ++j) sq += si[j] * si[j];
    const T n = std::sqrt(sq);
    if (!slot_norms.empty()) slot_norms[i] = n;
    const T inv = n > static_cast<T>(kSphereProjectEps) ? T(1) / n : T(1);
    for (std::size_t j = 0; j < d; ++j) o[j] = si[j] * inv;
  }
}

template <typename T>
void sphere_project_backward(std::span<const T> out, std::span<const T> slot_norms, std::span<const T> d_out,
                             std::size_t m_slots, std::size_t d, std::span<T> d_s) {
  assert(out.size() == m_slots * d && d_out.size() == out.size() && d_s.size() == out.size());
  for (std::size_t i = 0; i < m_slots; ++i) {
    const T* g = d_out.data() + i * d;
    T* ds = d_s.data() + i * d;
    const T n = slot_norms[i];
    if (!(n > static_cast<T>(kSphereProjectEps))) {
      for (std::size_t j = 0; j < d; ++j) ds[j] += g[j];
      continue;
    }
    const T* u = out.data() + i * d;  // the unit vector S[i]/||S[i]||
    T dot = 0;
    for (std::size_t j = 0; j < d; ++j) dot += u[j] * g[j];
    const T inv = T(1) / n;
    for (std::size_t j = 0; j < d; ++j) ds[j] += (g[j] - u[j] * dot) * inv;
  }
}

template void sphere_project_forward<float>(std::span<const float>, std::size_t, std::size_t, std::span<float>,
                                            std::span<float>);
template void sphere_project_forward<double>(std::span<const double>, std::size_t, std::size_t, std::span<double>,
                                             std::span<double>);
template void sphere_project_backward<float>(std::span<const float>, std::span<const float>, std::span<const float>,
                                             std::size_t, std::size_t, std::span<float>);
template void sphere_project_backward<double>(std::span<const double>, std::span<const double>,
                                              std::span<const double>, std::size_t, std::size_t, std::span<double>);

namespace {

void sphere_project_vjp(const CustomOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.outputs[0]);
  const std::span<float> ds = tape.grad_accumulator(op.inputs[0]);
  if (g.empty() || ds.empty()) return;
  sphere_project_backward<float>(tape.data(op.outputs[0]), saved_row_norms(op, tape), g, op.dims[0], op.dims[1], ds);
}

}  // namespace

Tensor sphere_project_normalize(const Tensor& s) {
  return record_row_norm_op("SphereProjectNormalize", sphere_project_forward<float>, sphere_project_vjp, s);
}

}  // namespace tape::ops
