#include "nl/frozen_read.hpp"

#include "nl/dense.hpp"
#include "nl/front_end.hpp"
#include "nl/lattice_read.hpp"
#include "nl/mlp_memory.hpp"
#include "nl/trellis_read.hpp"

namespace nl {

std::size_t read_aux_size(RuleKind kind, const RuleConfig& cfg) {
  switch (kind) {
    case RuleKind::moneta:
    case RuleKind::yaad:
    case RuleKind::memora: return cfg.d_h;
    case RuleKind::lattice: return cfg.m;
    case RuleKind::trellis: return trellis::read_cache_size(cfg.d_c);
    case RuleKind::delta:
    case RuleKind::titans:
    case RuleKind::hebbian:
    case RuleKind::atlas: return 0;
  }
  return 0;
}

template <typename T>
FrozenForward<T> frozen_forward(RuleKind kind, const RuleConfig& cfg, std::size_t s, std::span<const T> q_raw,
                                std::span<const T> state) {
  const std::size_t d = cfg.d, na = read_aux_size(kind, cfg);
  FrozenForward<T> out;
  FrozenCache<T>& c = out.cache;
  query_forward<T>(kind, s, d, q_raw, c.q, c.q_norm);
  c.aux.assign(s * na, T(0));
  out.y.assign(s * d, T(0));
  for (std::size_t t = 0; t < s; ++t) {
    const T* q = &c.q[t * d];
    T* y = &out.y[t * d];
    T* aux = c.aux.data() + t * na;
    switch (kind) {
      case RuleKind::moneta:
      case RuleKind::yaad:
      case RuleKind::memora:
        mlp::read<T>({cfg.d_h, d}, state.data(), state.data() + cfg.d_h * d, q, aux, y);
        break;
      case RuleKind::lattice: lattice::read(state.data(), cfg.m, d, q, aux, y); break;
      case RuleKind::trellis: trellis::read(state.data(), state.data() + cfg.d_c * d, cfg.d_c, d, q, aux, y); break;
      case RuleKind::delta:
      case RuleKind::titans:
      case RuleKind::hebbian:
      case RuleKind::atlas: dense::matvec(state.data(), d, d, q, y); break;
    }
  }
  return out;
}

template <typename T>
std::vector<T> frozen_backward(RuleKind kind, const RuleConfig& cfg, std::size_t s, std::span<const T> state,
                               const FrozenCache<T>& c, std::span<const T> gy) {
  const std::size_t d = cfg.d, na = read_aux_size(kind, cfg);
  std::vector<T> gq(s * d, T(0));
  for (std::size_t t = 0; t < s; ++t) {
    const T* q = &c.q[t * d];
    const T* g = &gy[t * d];
    const T* aux = c.aux.data() + t * na;
    T* gqt = &gq[t * d];
    switch (kind) {
      case RuleKind::moneta:
      case RuleKind::yaad:
      case RuleKind::memora:
        mlp::read_backward<T>({cfg.d_h, d}, state.data(), state.data() + cfg.d_h * d, q, aux, g, nullptr, nullptr,
                              gqt);
        break;
      case RuleKind::lattice: lattice::read_backward<T>(state.data(), cfg.m, d, q, aux, g, nullptr, gqt); break;
      case RuleKind::trellis:
        trellis::read_backward<T>(state.data(), state.data() + cfg.d_c * d, cfg.d_c, d, q, aux, g, nullptr, nullptr,
                                  gqt);
        break;
      case RuleKind::delta:
      case RuleKind::titans:
      case RuleKind::hebbian:
      case RuleKind::atlas: dense::matvec_t_add(state.data(), d, d, g, gqt); break;
    }
  }
  return query_backward<T>(kind, s, d, c.q, c.q_norm, gq);
}

template FrozenForward<float> frozen_forward<float>(RuleKind, const RuleConfig&, std::size_t, std::span<const float>,
                                                    std::span<const float>);
template FrozenForward<double> frozen_forward<double>(RuleKind, const RuleConfig&, std::size_t,
                                                      std::span<const double>, std::span<const double>);
template std::vector<float> frozen_backward<float>(RuleKind, const RuleConfig&, std::size_t, std::span<const float>,
                                                   const FrozenCache<float>&, std::span<const float>);
template std::vector<double> frozen_backward<double>(RuleKind, const RuleConfig&, std::size_t,
                                                     std::span<const double>, const FrozenCache<double>&,
                                                     std::span<const double>);
template FrozenForward<Tracked32> frozen_forward<Tracked32>(RuleKind, const RuleConfig&, std::size_t,
                                                            std::span<const Tracked32>, std::span<const Tracked32>);
template FrozenForward<Tracked64> frozen_forward<Tracked64>(RuleKind, const RuleConfig&, std::size_t,
                                                            std::span<const Tracked64>, std::span<const Tracked64>);
template std::vector<Tracked32> frozen_backward<Tracked32>(RuleKind, const RuleConfig&, std::size_t,
                                                           std::span<const Tracked32>, const FrozenCache<Tracked32>&,
                                                           std::span<const Tracked32>);
template std::vector<Tracked64> frozen_backward<Tracked64>(RuleKind, const RuleConfig&, std::size_t,
                                                           std::span<const Tracked64>, const FrozenCache<Tracked64>&,
                                                           std::span<const Tracked64>);

}  // namespace nl
