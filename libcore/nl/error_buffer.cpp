#include "nl/error_buffer.hpp"
#include "nl/tracked32.hpp"

#include <vector>

namespace nl {
namespace {

template <typename T>
void add_into(LevelParams<T>& dst, const LevelParams<T>& src) {
  std::vector<T> a = dst.to_flat();
  const std::vector<T> b = src.to_flat();
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  dst = LevelParams<T>::from_flat(a, dst.width(), !dst.w_omega.empty()).value();
}

}  // namespace

template <typename T>
void ErrorBuffer<T>::accumulate(const LevelParams<T>& g) {
  add_into(sum_, g);
  ++count_;
}

template <typename T>
void ErrorBuffer<T>::apply_to(LevelParams<T>& g) {
  add_into(g, sum_);
  sum_ = LevelParams<T>::zeros(sum_.width(), !sum_.w_omega.empty());
  count_ = 0;
}

template class ErrorBuffer<float>;
template class ErrorBuffer<double>;
template class ErrorBuffer<Tracked32>;
template class ErrorBuffer<Tracked64>;

}  // namespace nl
