#include "nl/level_params.hpp"
#include "nl/tracked32.hpp"

#include <algorithm>
#include <string>

namespace nl {

template <typename T>
LevelParams<T> LevelParams<T>::zeros(std::size_t d, bool omega) {
  LevelParams p;
  p.w_k.assign(d * d, T(0));
  p.w_v.assign(d * d, T(0));
  p.w_q.assign(d * d, T(0));
  p.w_alpha.assign(2 * d, T(0));
  p.w_theta.assign(2 * d, T(0));
  p.w_eta.assign(2 * d, T(0));
  if (omega) p.w_omega.assign(2 * d * d, T(0));
  return p;
}

template <typename T>
void LevelParams<T>::write_flat(std::span<T> out) const {
  T* o = out.data();
  for (const std::vector<T>* v : {&w_k, &w_v, &w_q, &w_alpha, &w_theta, &w_eta}) o = std::copy(v->begin(), v->end(), o);
  *o++ = b_alpha;
  *o++ = b_theta;
  *o++ = b_eta;
  std::copy(w_omega.begin(), w_omega.end(), o);
}

template <typename T>
std::vector<T> LevelParams<T>::to_flat() const {
  std::vector<T> out(flat_size(width(), !w_omega.empty()));
  write_flat(out);
  return out;
}

template <typename T>
common::Result<LevelParams<T>> LevelParams<T>::from_flat(std::span<const T> flat, std::size_t d, bool omega) {
  if (flat.size() != flat_size(d, omega)) {
    return common::Error::invalid_argument("level params: flat vector holds " + std::to_string(flat.size()) +
                                           " values; expected " + std::to_string(flat_size(d, omega)) +
                                           " for d=" + std::to_string(d) + (omega ? " with W_omega" : ""));
  }
  LevelParams p;
  const T* i = flat.data();
  auto take = [&i](std::vector<T>& v, std::size_t n) {
    v.assign(i, i + n);
    i += n;
  };
  take(p.w_k, d * d);
  take(p.w_v, d * d);
  take(p.w_q, d * d);
  take(p.w_alpha, 2 * d);
  take(p.w_theta, 2 * d);
  take(p.w_eta, 2 * d);
  p.b_alpha = *i++;
  p.b_theta = *i++;
  p.b_eta = *i++;
  if (omega) take(p.w_omega, 2 * d * d);
  return p;
}

template struct LevelParams<float>;
template struct LevelParams<double>;
template struct LevelParams<Tracked32>;
template struct LevelParams<Tracked64>;

}  // namespace nl
