#include "tape/ops/nl_straight_through.hpp"

#include <cassert>

namespace tape::ops {

template <typename T>
void straight_through_bool_forward(std::span<const T> x, T threshold, std::span<T> out) {
  assert(out.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] > threshold ? T(1) : T(0);
}

template <typename T>
void straight_through_bool_backward(std::span<const T> d_out, std::span<T> d_x) {
  assert(d_x.size() == d_out.size());
  for (std::size_t i = 0; i < d_out.size(); ++i) d_x[i] += d_out[i];
}

template void straight_through_bool_forward<float>(std::span<const float>, float, std::span<float>);
template void straight_through_bool_forward<double>(std::span<const double>, double, std::span<double>);
template void straight_through_bool_backward<float>(std::span<const float>, std::span<float>);
template void straight_through_bool_backward<double>(std::span<const double>, std::span<double>);

}  // namespace tape::ops
