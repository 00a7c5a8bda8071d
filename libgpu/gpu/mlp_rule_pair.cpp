// Host side of the MLP-rule kernel pairs (bodies in bodies/mlp_rules.hpp).
#include "gpu/rule_pairs.hpp"
#include "nl/front_end.hpp"

namespace gpu {
namespace {

using nl::RuleKind;

// What the pair's backward needs: the front cache and the weights the chunk started from. The
// trajectory of the memory's weights ((s+1) x 2 d_h d) and the per-step activations are made
// again on the device by the forward kernel (bit for bit: the same body on the same inputs)
// rather than taken to the host and back (matrix_rule_pair.cpp says why).
struct MlpCache {
  nl::FrontCache<float> front;
  std::vector<float> w0;
  template <typename F>
  void visit(F&& f) {
    front.visit(f), f(w0);
  }
};

MlpArgs base_args(RuleKind kind, const nl::RuleConfig& cfg, std::size_t s) {
  MlpArgs a{};
  a.rule = kind == RuleKind::moneta ? MlpRule::moneta : kind == RuleKind::yaad ? MlpRule::yaad : MlpRule::memora;
  a.bias.p = static_cast<float>(cfg.p), a.bias.a_s = static_cast<float>(cfg.a_s);
  a.bias.delta = static_cast<float>(cfg.huber_delta);
  a.bias.kind = kind == RuleKind::moneta ? Bias::lp : kind == RuleKind::yaad ? Bias::huber : Bias::identity;
  a.s = s, a.d = cfg.d, a.dh = cfg.d_h;
  a.lambda_loc2 = kind == RuleKind::yaad ? 2.f * static_cast<float>(cfg.lambda_loc) : 0.f;
  a.lambda_22 = kind == RuleKind::memora ? 0.f : 2.f * static_cast<float>(cfg.lambda_2);
  return a;
}

// One run of the forward kernel over a chunk, its buffers on the backend.
struct MlpTrajectory {
  MlpTrajectory(Backend& b, const MlpArgs& base, const nl::FrontCache<float>& f, std::span<const float> w0)
      : k(b, f.k), v(b, f.v), q(b, f.q), alpha(b, f.alpha), theta(b, f.theta), w(b, (base.s + 1) * 2 * base.dh * base.d),
        a(b, base.s * base.dh), h(b, base.s * base.dh), aq(b, base.s * base.dh), r(b, base.s * base.dh),
        c(b, base.s * base.dh), e(b, base.s * base.d), y(b, base.s * base.d), args(base) {
    w.upload_prefix(w0);
    args.k = k.get(), args.v = v.get(), args.q = q.get(), args.alpha = alpha.get(), args.theta = theta.get();
    args.w = w.get(), args.a = a.get(), args.h = h.get(), args.aq = aq.get(), args.r = r.get(), args.c = c.get();
    args.e = e.get(), args.y = y.get();
    launch_phased<PhasedId::mlp_forward>(b, args, base.s);
  }
  Buffer k, v, q, alpha, theta, w, a, h, aq, r, c, e, y;
  MlpArgs args;  // the forward's, pointing at the buffers above
};

class MlpRulePair final : public nl::KernelPair {
 public:
  MlpRulePair(RuleKind kind, Backend& backend) : kind_(kind), b_(backend) {}

  [[nodiscard]] std::string_view device() const override { return b_.name(); }

  [[nodiscard]] nl::KernelChunk forward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                        const nl::LevelParams<float>& p, std::span<const float> state0) const override {
    const std::size_t d = cfg.d, dh = cfg.d_h, n = 2 * dh * d;
    MlpCache c;
    c.front = nl::front_forward<float>(kind_, s, x, p);
    const MlpTrajectory run(b_, base_args(kind_, cfg, s), c.front, state0);
    nl::KernelChunk out;
    out.y = run.y.to_host();
    out.final_state = run.w.to_host(s * n, n);
    c.w0.assign(state0.begin(), state0.end());
    out.cache = nl::pack_cache(c);
    return out;
  }

  [[nodiscard]] nl::ChunkGrads<float> backward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                               const nl::LevelParams<float>& p, std::span<const float> layout,
                                               std::span<const float> data,
                                               std::span<const float> gy) const override {
    const std::size_t d = cfg.d, dh = cfg.d_h, n = 2 * dh * d, rows = dh + d;
    MlpCache c;
    nl::unpack_cache(layout, data, c);
    const MlpTrajectory run(b_, base_args(kind_, cfg, s), c.front, c.w0);  // weights and activations again
    Buffer g_y(b_, gy), gw(b_, n), gz(b_, n), gaq(b_, dh), gc(b_, dh), gr(b_, dh), ga(b_, dh), gh(b_, dh), ggv(b_, d),
        ge(b_, d), gk(b_, s * d), gv(b_, s * d), gq(b_, s * d), palpha(b_, rows * s), ptheta(b_, rows * s),
        galpha(b_, s), gtheta(b_, s);
    MlpArgs args = run.args;
    args.y = nullptr;  // the backward writes no outputs
    args.gy = g_y.get(), args.gw = gw.get(), args.gz = gz.get(), args.gaq = gaq.get();
    args.gc = gc.get(), args.gr = gr.get(), args.ga = ga.get(), args.gh = gh.get(), args.ggv = ggv.get();
    args.ge = ge.get(), args.gk = gk.get(), args.gv = gv.get(), args.gq = gq.get();
    args.palpha = palpha.get(), args.ptheta = ptheta.get();
    launch_phased<PhasedId::mlp_backward>(b_, args, s);
    launch<KernelId::reduce_rows>(b_, {palpha.get(), rows, s, galpha.get()}, s);
    launch<KernelId::reduce_rows>(b_, {ptheta.get(), rows, s, gtheta.get()}, s);
    b_.synchronize();
    nl::FrontGrads<float> g(s, d);
    g.k = gk.to_host(), g.v = gv.to_host(), g.q = gq.to_host();
    g.alpha = galpha.to_host(), g.theta = gtheta.to_host();
    nl::ChunkGrads<float> out{{}, nl::LevelParams<float>::zeros(d, false)};
    out.x = nl::front_backward<float>(kind_, s, x, p, c.front, g, out.params);
    return out;
  }

 private:
  RuleKind kind_;
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::KernelPair> make_mlp_rule_pair(RuleKind kind, Backend& backend) {
  return std::make_unique<MlpRulePair>(kind, backend);
}

}  // namespace gpu
