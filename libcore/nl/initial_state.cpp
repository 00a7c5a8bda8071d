#include "nl/initial_state.hpp"

#include <cmath>
#include <vector>

#include "nl/unit_norm.hpp"
#include "nl/tracked32.hpp"

namespace nl {

double hash01(std::uint64_t i) {
  const std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u;  // u32 wrap-multiply
  return static_cast<double>(h) / 4294967295.0;
}

template <typename T>
std::vector<T> initial_state(RuleKind kind, const RuleConfig& cfg) {
  const std::size_t d = cfg.d, dh = cfg.d_h;
  std::vector<T> s(state_size(kind, cfg), T(0));
  switch (kind) {
    case RuleKind::moneta:
    case RuleKind::yaad: {
      const double scale = 0.1 * std::sqrt(2.0 / static_cast<double>(d + dh));
      for (std::size_t i = 0; i < dh * d; ++i) s[i] = static_cast<T>(scale * (hash01(i) - 0.5));
      break;  // W2 stays 0
    }
    case RuleKind::memora: {
      std::vector<double> z(d);  // one row's logits
      for (std::size_t r = 0; r < dh; ++r) {
        double sum = 0, mx = -1e300;
        for (std::size_t c = 0; c < d; ++c) mx = std::fmax(mx, z[c] = 0.1 * (hash01(r * d + c) - 0.5));
        for (std::size_t c = 0; c < d; ++c) sum += (z[c] = std::exp(z[c] - mx));
        for (std::size_t c = 0; c < d; ++c) s[r * d + c] = static_cast<T>(z[c] / sum);
      }
      for (std::size_t i = dh * d; i < 2 * dh * d; ++i) s[i] = static_cast<T>(1.0 / static_cast<double>(dh));
      break;
    }
    case RuleKind::lattice: {
      // O-4 defines S as a formula (hash01 values, rows normalised), like the Moneta/MEMORA states
      // above: it is evaluated in double and rounded once to T, so the fp32 state is the fp64 one
      // rounded (normalising in fp32 left rows up to 2 ulp off it). Same 1e-8 floor as §9's L2Norm.
      std::vector<double> row(d);
      for (std::size_t i = 0; i < cfg.m; ++i) {
        for (std::size_t j = 0; j < d; ++j) row[j] = hash01(i * d + j) - 0.5;
        (void)unit_norm_forward(row.data(), d, row.data());
        for (std::size_t j = 0; j < d; ++j) s[i * d + j] = static_cast<T>(row[j]);
      }
      break;
    }
    case RuleKind::delta:
    case RuleKind::titans:
    case RuleKind::hebbian:
    case RuleKind::atlas:
    case RuleKind::trellis: break;
  }
  return s;
}

template std::vector<float> initial_state<float>(RuleKind, const RuleConfig&);
template std::vector<double> initial_state<double>(RuleKind, const RuleConfig&);
template std::vector<Tracked32> initial_state<Tracked32>(RuleKind, const RuleConfig&);
template std::vector<Tracked64> initial_state<Tracked64>(RuleKind, const RuleConfig&);

}  // namespace nl
