// Host side of the Trellis kernel pair (bodies in bodies/trellis.hpp).
#include "gpu/rule_pairs.hpp"
#include "nl/front_end.hpp"

namespace gpu {
namespace {

using nl::RuleKind;

struct TrellisCache {
  nl::FrontCache<float> front;
  std::vector<float> st, read, key, ek, ev;
  template <typename F>
  void visit(F&& f) {
    front.visit(f), f(st), f(read), f(key), f(ek), f(ev);
  }
};

TrellisArgs base_args(const nl::RuleConfig& cfg, std::size_t s) {
  TrellisArgs a{};
  a.s = s, a.d = cfg.d, a.dc = cfg.d_c;
  a.lambda_k = static_cast<float>(cfg.lambda_k), a.lambda_v = static_cast<float>(cfg.lambda_v);
  return a;
}

class TrellisPair final : public nl::KernelPair {
 public:
  explicit TrellisPair(Backend& backend) : b_(backend) {}

  [[nodiscard]] std::string_view device() const override { return b_.name(); }

  [[nodiscard]] nl::KernelChunk forward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                        const nl::LevelParams<float>& p, std::span<const float> state0) const override {
    const std::size_t d = cfg.d, dc = cfg.d_c, n = 2 * dc * d, nr = 2 * dc + 1;
    TrellisCache c;
    c.front = nl::front_forward<float>(RuleKind::trellis, s, x, p);
    Buffer bx(b_, x), k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha),
        theta(b_, c.front.theta), st(b_, (s + 1) * n), rd(b_, s * nr), ky(b_, s * nr), ek(b_, s * dc), ev(b_, s * d),
        y(b_, s * d);
    st.upload_prefix(state0);
    TrellisArgs a = base_args(cfg, s);
    a.x = bx.get(), a.k = k.get(), a.v = v.get(), a.q = q.get(), a.alpha = alpha.get(), a.theta = theta.get();
    a.st = st.get(), a.read = rd.get(), a.key = ky.get(), a.ek = ek.get(), a.ev = ev.get(), a.y = y.get();
    launch_phased<PhasedId::trellis_forward>(b_, a, s);
    b_.synchronize();
    nl::KernelChunk out;
    out.y = y.to_host();
    c.st = st.to_host(), c.read = rd.to_host(), c.key = ky.to_host(), c.ek = ek.to_host(), c.ev = ev.to_host();
    out.final_state.assign(c.st.end() - static_cast<std::ptrdiff_t>(n), c.st.end());
    out.cache = nl::pack_cache(c);
    return out;
  }

  [[nodiscard]] nl::ChunkGrads<float> backward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                               const nl::LevelParams<float>& p, std::span<const float> layout,
                                               std::span<const float> data,
                                               std::span<const float> gy) const override {
    const std::size_t d = cfg.d, dc = cfg.d_c, n = 2 * dc * d, rows = dc + d;
    TrellisCache c;
    nl::unpack_cache(layout, data, c);
    Buffer bx(b_, x), k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha),
        theta(b_, c.front.theta), st(b_, c.st), rd(b_, c.read), ky(b_, c.key), ek(b_, c.ek), ev(b_, c.ev),
        g_y(b_, gy), gst(b_, n), gcq(b_, dc), grq(b_, dc), gck(b_, dc), grk(b_, dc), gek(b_, dc), gev(b_, d),
        gx(b_, s * d), gq(b_, s * d), gk(b_, s * d), gv(b_, s * d), palpha(b_, rows * s), ptheta(b_, rows * s),
        galpha(b_, s), gtheta(b_, s);
    TrellisArgs a = base_args(cfg, s);
    a.x = bx.get(), a.k = k.get(), a.v = v.get(), a.q = q.get(), a.alpha = alpha.get(), a.theta = theta.get();
    a.st = st.get(), a.read = rd.get(), a.key = ky.get(), a.ek = ek.get(), a.ev = ev.get();
    a.gy = g_y.get(), a.gst = gst.get(), a.gcq = gcq.get(), a.grq = grq.get(), a.gck = gck.get();
    a.grk = grk.get(), a.gek = gek.get(), a.gev = gev.get(), a.gx = gx.get(), a.gq = gq.get(), a.gk = gk.get();
    a.gv = gv.get(), a.palpha = palpha.get(), a.ptheta = ptheta.get();
    launch_phased<PhasedId::trellis_backward>(b_, a, s);
    launch<KernelId::reduce_rows>(b_, {palpha.get(), rows, s, galpha.get()}, s);
    launch<KernelId::reduce_rows>(b_, {ptheta.get(), rows, s, gtheta.get()}, s);
    b_.synchronize();
    nl::FrontGrads<float> g(s, d);
    g.k = gk.to_host(), g.v = gv.to_host(), g.q = gq.to_host(), g.x_direct = gx.to_host();
    g.alpha = galpha.to_host(), g.theta = gtheta.to_host();
    nl::ChunkGrads<float> out{{}, nl::LevelParams<float>::zeros(d, false)};
    out.x = nl::front_backward<float>(RuleKind::trellis, s, x, p, c.front, g, out.params);
    return out;
  }

 private:
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::KernelPair> make_trellis_pair(Backend& backend) { return std::make_unique<TrellisPair>(backend); }

}  // namespace gpu
