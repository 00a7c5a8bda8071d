#pragma once
// The matrix memory with EMA momentum shared by TitansLMM (§6.2) and AtlasOmega (§6.4):
//   S_{t+1} = eta_t S_t - theta_t a_t k_t^T,  M_{t+1} = (1 - alpha_t) M_t + S_{t+1},  y_t = M_{t+1} q_t
// with S_0 = 0. The rules differ only in the drive a_t (Titans: psi(M_t k_t - v_t); Atlas:
// W_omega silu([k;v])), supplied as callbacks.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "nl/dense.hpp"
#include "nl/front_end.hpp"
#include "nl/segmented_states.hpp"

namespace nl::momentum {

template <typename T>
struct Trajectory {
  SegmentedStates<T> m, s;  // M_0..M_s and S_0..S_s, (len+1) x d x d each
  std::vector<T> a;     // len x d: the drives
};

// drive(t, M_t, a_t) writes a_t (d).
template <typename T, typename Drive>
void forward(std::size_t len, std::size_t d, const FrontCache<T>& f, std::span<const T> state0, Trajectory<T>& tr,
             std::vector<T>& y, Drive&& drive) {
  const std::size_t dd = d * d;
  tr.m.start(len + 1, state0);
  tr.s.start(len + 1, std::vector<T>(dd, T(0)));  // S_0 = 0
  tr.a.assign(len * d, T(0));
  y.assign(len * d, T(0));
  for (std::size_t t = 0; t < len; ++t) {
    const T* m = tr.m.state(t);
    const T* sm = tr.s.state(t);
    T* mn = tr.m.fill(t + 1);
    T* sn = tr.s.fill(t + 1);
    T* a = &tr.a[t * d];
    drive(t, m, a);
    const T eta = f.eta[t], retain = T(1) - f.alpha[t];
    for (std::size_t i = 0; i < dd; ++i) sn[i] = eta * sm[i];
    dense::add_outer(sn, d, d, -f.theta[t], a, &f.k[t * d]);
    for (std::size_t i = 0; i < dd; ++i) mn[i] = retain * m[i] + sn[i];
    dense::matvec(mn, d, d, &f.q[t * d], &y[t * d]);
  }
}

// The forward's last state M_len, then both trajectories sealed (segmented_states.hpp).
template <typename T>
void finish(std::size_t len, std::size_t d, Trajectory<T>& tr, std::vector<T>& final_state) {
  final_state.assign(tr.m.state(len), tr.m.state(len) + d * d);
  tr.m.finish(), tr.s.finish();
}

// drive_backward(t, ga_t, gM_prev) propagates the adjoint of a_t (into g and gM_prev, the
// adjoint of M_t being assembled).
template <typename T, typename DriveBackward>
void backward(std::size_t len, std::size_t d, const FrontCache<T>& f, const Trajectory<T>& tr, std::span<const T> gy,
              FrontGrads<T>& g, DriveBackward&& drive_backward) {
  const std::size_t dd = d * d;
  tr.m.shape(len + 1, dd), tr.s.shape(len + 1, dd);
  std::vector<T> gm(dd, T(0)), gs(dd, T(0)), gm_prev(dd), gs_k(d), ga(d), tmp(d);
  for (std::size_t t = len; t-- > 0;) {
    const T* m = tr.m.state(t);
    const T* sm = tr.s.state(t);
    const T* mn = tr.m.state(t + 1);
    const T* k = &f.k[t * d];
    const T* a = &tr.a[t * d];
    const T* gyt = &gy[t * d];
    const T alpha = f.alpha[t], th = f.theta[t], eta = f.eta[t];
    dense::add_outer(gm.data(), d, d, T(1), gyt, &f.q[t * d]);
    dense::matvec_t_add(mn, d, d, gyt, &g.q[t * d]);
    for (std::size_t i = 0; i < dd; ++i) gs[i] += gm[i];
    g.alpha[t] = -dense::dot(gm.data(), m, dd);
    for (std::size_t i = 0; i < dd; ++i) gm_prev[i] = (T(1) - alpha) * gm[i];
    g.eta[t] = dense::dot(gs.data(), sm, dd);
    dense::matvec(gs.data(), d, d, k, gs_k.data());
    g.theta[t] = -dense::dot(a, gs_k.data(), d);  // -<gS, a k^T>
    for (std::size_t i = 0; i < d; ++i) ga[i] = -th * gs_k[i];
    std::fill(tmp.begin(), tmp.end(), T(0));
    dense::matvec_t_add(gs.data(), d, d, a, tmp.data());
    dense::axpy(&g.k[t * d], -th, tmp.data(), d);  // gk += gG^T a with gG = -th gS
    drive_backward(t, ga.data(), gm_prev.data());
    for (std::size_t i = 0; i < dd; ++i) gs[i] *= eta;
    gm.swap(gm_prev);
  }
}

}  // namespace nl::momentum
