// Host side of the matrix-rule kernel pairs (bodies in bodies/matrix_rules.hpp).
#include <algorithm>

#include "gpu/rule_pairs.hpp"
#include "nl/front_end.hpp"
#include "tape/ops/activation.hpp"

namespace gpu {
namespace {

using nl::RuleKind;

MatrixRule matrix_rule(RuleKind kind) {
  switch (kind) {
    case RuleKind::titans: return MatrixRule::titans;
    case RuleKind::hebbian: return MatrixRule::hebbian;
    case RuleKind::atlas: return MatrixRule::atlas;
    default: return MatrixRule::delta;
  }
}

// What the pair's backward needs, packed with nl::pack_cache: the front cache, the state the chunk
// started from (M_0; S_0 is zero), Atlas's drive and silu([k;v]). Not the trajectories of M and S:
// the backward runs the forward kernel again from M_0, which gives them bit for bit (the same body
// on the same inputs), instead of taking (s+1) d^2 values (twice that for the momentum rules) to
// the host after the forward and back to the device for the backward: 68 MB each way per
// sequence and level at d = 512, s = 64, on a device that computes them in microseconds.
struct MatrixCache {
  nl::FrontCache<float> front;
  std::vector<float> m0, drive, u;
  template <typename F>
  void visit(F&& f) {
    front.visit(f), f(m0), f(drive), f(u);
  }
};

// One run of the forward kernel over a chunk, its buffers on the backend: from M_0 (and S_0 = 0),
// the trajectories of M (and S), the error or drive e, and the outputs y.
struct Trajectory {
  Trajectory(Backend& b, MatrixRule rule, std::size_t s, std::size_t d, const nl::FrontCache<float>& f,
             std::span<const float> drive, std::span<const float> m0)
      : k(b, f.k), v(b, f.v), q(b, f.q), alpha(b, f.alpha), theta(b, f.theta), eta(b, f.eta), drv(b, drive),
        m(b, (s + 1) * d * d), sm(b, has_momentum(rule) ? (s + 1) * d * d : 0), e(b, s * d), y(b, s * d) {
    m.upload_prefix(m0);
    const MatrixForwardArgs args{rule,        s,        d,         k.get(), v.get(),  q.get(), alpha.get(),
                                 theta.get(), eta.get(), drv.get(), m.get(), sm.get(), e.get(), y.get()};
    launch<KernelId::matrix_forward>(b, args, d);
  }
  Buffer k, v, q, alpha, theta, eta, drv, m, sm, e, y;
};

class MatrixRulePair final : public nl::KernelPair {
 public:
  MatrixRulePair(RuleKind kind, Backend& backend) : kind_(kind), rule_(matrix_rule(kind)), b_(backend) {}

  [[nodiscard]] std::string_view device() const override { return b_.name(); }

  [[nodiscard]] nl::KernelChunk forward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                        const nl::LevelParams<float>& p, std::span<const float> state0) const override {
    const std::size_t d = cfg.d, dd = d * d;
    MatrixCache c;
    c.front = nl::front_forward<float>(kind_, s, x, p);
    std::vector<float> drive;
    if (rule_ == MatrixRule::atlas) {
      c.u.resize(s * 2 * d);
      drive.assign(s * d, 0.f);
      for (std::size_t t = 0; t < s; ++t) {
        for (std::size_t i = 0; i < d; ++i) {
          c.u[t * 2 * d + i] = tape::ops::silu_value(c.front.k[t * d + i]);
          c.u[t * 2 * d + d + i] = tape::ops::silu_value(c.front.v[t * d + i]);
        }
        for (std::size_t i = 0; i < d; ++i) {
          float acc = 0.f;
          for (std::size_t j = 0; j < 2 * d; ++j) acc += p.w_omega[i * 2 * d + j] * c.u[t * 2 * d + j];
          drive[t * d + i] = acc;
        }
      }
    }
    const Trajectory run(b_, rule_, s, d, c.front, drive, state0);
    nl::KernelChunk out;
    out.y = run.y.to_host();
    out.final_state = run.m.to_host(s * dd, dd);
    c.m0.assign(state0.begin(), state0.end());
    c.drive = std::move(drive);
    out.cache = nl::pack_cache(c);
    return out;
  }

  [[nodiscard]] nl::ChunkGrads<float> backward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                               const nl::LevelParams<float>& p, std::span<const float> layout,
                                               std::span<const float> data,
                                               std::span<const float> gy) const override {
    const std::size_t d = cfg.d, dd = d * d;
    MatrixCache c;
    nl::unpack_cache(layout, data, c);
    const Trajectory run(b_, rule_, s, d, c.front, c.drive, c.m0);  // M, S and e again, on the device
    Buffer g_y(b_, gy), gm(b_, dd), gs(b_, has_momentum(rule_) ? dd : 0), pk(b_, d * s * d), pq(b_, d * s * d),
        palpha(b_, d * s), ptheta(b_, d * s), peta(b_, d * s), gv(b_, s * d);
    const MatrixBackwardArgs args{rule_,           s,           d,           run.k.get(),  run.v.get(),  run.q.get(),
                                  run.alpha.get(), run.theta.get(), run.eta.get(), run.m.get(), run.sm.get(),
                                  run.e.get(),     g_y.get(),   gm.get(),    gs.get(),     pk.get(),     pq.get(),
                                  palpha.get(),    ptheta.get(), peta.get(), gv.get()};
    launch<KernelId::matrix_backward>(b_, args, d);
    Buffer gk(b_, s * d), gq(b_, s * d), galpha(b_, s), gtheta(b_, s), geta(b_, s);
    launch<KernelId::reduce_rows>(b_, {pk.get(), d, s * d, gk.get()}, s * d);
    launch<KernelId::reduce_rows>(b_, {pq.get(), d, s * d, gq.get()}, s * d);
    launch<KernelId::reduce_rows>(b_, {palpha.get(), d, s, galpha.get()}, s);
    launch<KernelId::reduce_rows>(b_, {ptheta.get(), d, s, gtheta.get()}, s);
    launch<KernelId::reduce_rows>(b_, {peta.get(), d, s, geta.get()}, s);
    b_.synchronize();
    nl::FrontGrads<float> g(s, d);
    g.k = gk.to_host();
    g.q = gq.to_host();
    g.alpha = galpha.to_host();
    g.theta = gtheta.to_host();
    if (has_momentum(rule_)) g.eta = geta.to_host();
    std::vector<float> gv_host = gv.to_host();
    nl::ChunkGrads<float> out{{}, nl::LevelParams<float>::zeros(d, rule_ == MatrixRule::atlas)};
    if (rule_ == MatrixRule::atlas) {
      // The drive omega_t = W_omega u_t, u_t = silu([k_t; v_t]): its adjoint reaches W_omega, k and v.
      std::vector<float> gu(2 * d);
      for (std::size_t t = 0; t < s; ++t) {
        const float* ga = &gv_host[t * d];
        const float* u = &c.u[t * 2 * d];
        std::fill(gu.begin(), gu.end(), 0.f);
        for (std::size_t i = 0; i < d; ++i) {
          for (std::size_t j = 0; j < 2 * d; ++j) {
            out.params.w_omega[i * 2 * d + j] += ga[i] * u[j];
            gu[j] += p.w_omega[i * 2 * d + j] * ga[i];
          }
        }
        for (std::size_t i = 0; i < d; ++i) {
          g.k[t * d + i] += gu[i] * tape::ops::silu_derivative(c.front.k[t * d + i]);
          g.v[t * d + i] = gu[d + i] * tape::ops::silu_derivative(c.front.v[t * d + i]);
        }
      }
    } else {
      g.v = std::move(gv_host);
    }
    out.x = nl::front_backward<float>(kind_, s, x, p, c.front, g, out.params);
    return out;
  }

 private:
  RuleKind kind_;
  MatrixRule rule_;
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::KernelPair> make_matrix_rule_pair(RuleKind kind, Backend& backend) {
  return std::make_unique<MatrixRulePair>(kind, backend);
}

}  // namespace gpu
