// Host side of the MLP-rule kernel pairs (bodies in bodies/mlp_rules.hpp).
#include "gpu/rule_pairs.hpp"
#include "nl/front_end.hpp"

namespace gpu {
namespace {

using nl::RuleKind;

struct MlpCache {
  nl::FrontCache<float> front;
  std::vector<float> w, a, h, aq, r, c, e;
  template <typename F>
  void visit(F&& f) {
    front.visit(f), f(w), f(a), f(h), f(aq), f(r), f(c), f(e);
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

class MlpRulePair final : public nl::KernelPair {
 public:
  MlpRulePair(RuleKind kind, Backend& backend) : kind_(kind), b_(backend) {}

  [[nodiscard]] std::string_view device() const override { return b_.name(); }

  [[nodiscard]] nl::KernelChunk forward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                        const nl::LevelParams<float>& p, std::span<const float> state0) const override {
    const std::size_t d = cfg.d, dh = cfg.d_h, n = 2 * dh * d;
    MlpCache c;
    c.front = nl::front_forward<float>(kind_, s, x, p);
    Buffer k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha), theta(b_, c.front.theta),
        w(b_, (s + 1) * n), ba(b_, s * dh), h(b_, s * dh), aq(b_, s * dh), r(b_, s * dh), cc(b_, s * dh),
        e(b_, s * d), y(b_, s * d);
    w.upload_prefix(state0);
    MlpArgs args = base_args(kind_, cfg, s);
    args.k = k.get(), args.v = v.get(), args.q = q.get(), args.alpha = alpha.get(), args.theta = theta.get();
    args.w = w.get(), args.a = ba.get(), args.h = h.get(), args.aq = aq.get(), args.r = r.get(), args.c = cc.get();
    args.e = e.get(), args.y = y.get();
    launch_phased<PhasedId::mlp_forward>(b_, args, s);
    b_.synchronize();
    nl::KernelChunk out;
    out.y = y.to_host();
    c.w = w.to_host(), c.a = ba.to_host(), c.h = h.to_host(), c.aq = aq.to_host(), c.r = r.to_host();
    c.c = cc.to_host(), c.e = e.to_host();
    out.final_state.assign(c.w.end() - static_cast<std::ptrdiff_t>(n), c.w.end());
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
    Buffer k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha), theta(b_, c.front.theta),
        w(b_, c.w), ba(b_, c.a), h(b_, c.h), aq(b_, c.aq), r(b_, c.r), cc(b_, c.c), e(b_, c.e), g_y(b_, gy),
        gw(b_, n), gz(b_, n), gaq(b_, dh), gc(b_, dh), gr(b_, dh), ga(b_, dh), gh(b_, dh), ggv(b_, d), ge(b_, d),
        gk(b_, s * d), gv(b_, s * d), gq(b_, s * d), palpha(b_, rows * s), ptheta(b_, rows * s), galpha(b_, s),
        gtheta(b_, s);
    MlpArgs args = base_args(kind_, cfg, s);
    args.k = k.get(), args.v = v.get(), args.q = q.get(), args.alpha = alpha.get(), args.theta = theta.get();
    args.w = w.get(), args.a = ba.get(), args.h = h.get(), args.aq = aq.get(), args.r = r.get(), args.c = cc.get();
    args.e = e.get(), args.gy = g_y.get(), args.gw = gw.get(), args.gz = gz.get(), args.gaq = gaq.get();
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
