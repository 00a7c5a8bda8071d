#include "nl/frequency_gate.hpp"

#include "nl/blas.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/nl_straight_through.hpp"

namespace nl {

template <typename T>
GateForward<T> frequency_gate_forward(std::size_t s, std::size_t d, std::span<const T> x, std::span<const T> w_freq,
                                      std::span<const T> b_freq) {
  using namespace tape::ops;
  const std::size_t g = b_freq.size();
  GateForward<T> f;
  f.mean_row.assign(s, T(1) / static_cast<T>(s));
  f.x_bar.resize(d);
  matmul_forward<T>(f.mean_row, x, f.x_bar, 1, s, d, false);
  std::vector<T> raw(g);
  matmul_forward<T>(f.x_bar, w_freq, raw, 1, d, g, true);
  f.logits.resize(g), f.mask.resize(g);
  add_forward<T>(raw, b_freq, f.logits);
  straight_through_bool_forward<T>(f.logits, T(0), f.mask);
  return f;
}

template <typename T>
Pulse gate_pulse(const GateForward<T>& g) {
  Pulse p;
  p.active.push_back(true);
  for (T m : g.mask) p.active.push_back(m > T(0.5));
  return p;
}

template <typename T>
std::vector<T> mix_level(std::span<const T> y_active, std::span<const T> y_frozen, T m) {
  using namespace tape::ops;
  const std::size_t n = y_active.size();
  const T one = T(1), keep = m;
  T other = 0;
  sub_forward<T>(std::span<const T>(&one, 1), std::span<const T>(&keep, 1), std::span<T>(&other, 1));
  std::vector<T> a(n), b(n), y(n);
  matmul_forward<T>(y_active, std::span<const T>(&keep, 1), a, n, 1, 1, false);
  matmul_forward<T>(y_frozen, std::span<const T>(&other, 1), b, n, 1, 1, false);
  add_forward<T>(a, b, y);
  return y;
}

template <typename T>
T mix_level_backward(std::span<const T> y_active, std::span<const T> y_frozen, T m, std::span<const T> g,
                     std::vector<T>& g_active, std::vector<T>& g_frozen) {
  const std::size_t n = g.size();
  const T other = T(1) - m;  // m is 0 or 1: exact
  g_active.assign(n, T(0)), g_frozen.assign(n, T(0));
  // The tape's reverse sweep: the (1 - m) y_frozen product, then Sub(1, m), then m y_active.
  T g_other = 0, g_m = 0;
  blas::gemm(false, true, n, 1, 1, g.data(), &other, T(1), g_frozen.data());
  blas::gemm(true, false, 1, 1, n, y_frozen.data(), g.data(), T(1), &g_other);
  g_m += T(-1) * g_other;
  blas::gemm(false, true, n, 1, 1, g.data(), &m, T(1), g_active.data());
  blas::gemm(true, false, 1, 1, n, y_active.data(), g.data(), T(1), &g_m);
  return g_m;
}

template <typename T>
void frequency_gate_backward(std::size_t s, std::size_t d, std::span<const T> w_freq, const GateForward<T>& f,
                             std::span<const T> g_mask, std::span<T> g_w_freq, std::span<T> g_b_freq,
                             std::span<T> g_x) {
  const std::size_t g = g_mask.size();
  std::vector<T> g_logits(g, T(0)), g_x_bar(d, T(0));
  tape::ops::straight_through_bool_backward<T>(g_mask, g_logits);
  for (std::size_t i = 0; i < g; ++i) g_b_freq[i] += T(1) * g_logits[i];
  blas::gemm(false, false, 1, d, g, g_logits.data(), w_freq.data(), T(1), g_x_bar.data());
  blas::gemm(true, false, g, d, 1, g_logits.data(), f.x_bar.data(), T(1), g_w_freq.data());
  blas::gemm(true, false, s, d, 1, f.mean_row.data(), g_x_bar.data(), T(1), g_x.data());
}

#define NL_FREQUENCY_GATE(T)                                                                                        \
  template GateForward<T> frequency_gate_forward<T>(std::size_t, std::size_t, std::span<const T>,                   \
                                                    std::span<const T>, std::span<const T>);                        \
  template Pulse gate_pulse<T>(const GateForward<T>&);                                                              \
  template std::vector<T> mix_level<T>(std::span<const T>, std::span<const T>, T);                                  \
  template T mix_level_backward<T>(std::span<const T>, std::span<const T>, T, std::span<const T>, std::vector<T>&,  \
                                   std::vector<T>&);                                                                \
  template void frequency_gate_backward<T>(std::size_t, std::size_t, std::span<const T>, const GateForward<T>&,     \
                                           std::span<const T>, std::span<T>, std::span<T>, std::span<T>);
NL_FREQUENCY_GATE(float)
NL_FREQUENCY_GATE(double)
NL_FREQUENCY_GATE(Tracked32)
NL_FREQUENCY_GATE(Tracked64)
#undef NL_FREQUENCY_GATE

}  // namespace nl
