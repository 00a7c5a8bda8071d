// Host side of the LatticeOSR kernel pair (bodies in bodies/lattice.hpp).
#include "gpu/rule_pairs.hpp"
#include "nl/front_end.hpp"

namespace gpu {
namespace {

using nl::RuleKind;

struct LatticeCache {
  nl::FrontCache<float> front;
  std::vector<float> slots, w, gamma, norm;
  template <typename F>
  void visit(F&& f) {
    front.visit(f), f(slots), f(w), f(gamma), f(norm);
  }
};

LatticeWrite write_variant(nl::LatticeVariant v) {
  switch (v) {
    case nl::LatticeVariant::decode: return LatticeWrite::decode;
    case nl::LatticeVariant::encode: return LatticeWrite::encode;
    case nl::LatticeVariant::similarity: return LatticeWrite::similarity;
  }
  return LatticeWrite::decode;
}

class LatticePair final : public nl::KernelPair {
 public:
  explicit LatticePair(Backend& backend) : b_(backend) {}

  [[nodiscard]] std::string_view device() const override { return b_.name(); }

  [[nodiscard]] nl::KernelChunk forward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                        const nl::LevelParams<float>& p, std::span<const float> state0) const override {
    const std::size_t d = cfg.d, m = cfg.m, n = m * d;
    LatticeCache c;
    c.front = nl::front_forward<float>(RuleKind::lattice, s, x, p);
    Buffer k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha), slots(b_, (s + 1) * n),
        score(b_, m), w(b_, s * m), gamma(b_, s * m), norm(b_, s * m), y(b_, s * d);
    slots.upload_prefix(state0);
    LatticeArgs args{};
    args.variant = write_variant(cfg.lattice_variant), args.s = s, args.d = d, args.m = m;
    args.k = k.get(), args.v = v.get(), args.q = q.get(), args.alpha = alpha.get(), args.slots = slots.get();
    args.score = score.get(), args.w = w.get(), args.gamma = gamma.get(), args.norm = norm.get(), args.y = y.get();
    launch_phased<PhasedId::lattice_forward>(b_, args, s);
    b_.synchronize();
    nl::KernelChunk out;
    out.y = y.to_host();
    c.slots = slots.to_host(), c.w = w.to_host(), c.gamma = gamma.to_host(), c.norm = norm.to_host();
    out.final_state.assign(c.slots.end() - static_cast<std::ptrdiff_t>(n), c.slots.end());
    out.cache = nl::pack_cache(c);
    return out;
  }

  [[nodiscard]] nl::ChunkGrads<float> backward(const nl::RuleConfig& cfg, std::size_t s, std::span<const float> x,
                                               const nl::LevelParams<float>& p, std::span<const float> layout,
                                               std::span<const float> data,
                                               std::span<const float> gy) const override {
    const std::size_t d = cfg.d, m = cfg.m;
    LatticeCache c;
    nl::unpack_cache(layout, data, c);
    Buffer k(b_, c.front.k), v(b_, c.front.v), q(b_, c.front.q), alpha(b_, c.front.alpha), slots(b_, c.slots),
        score(b_, m), w(b_, c.w), gamma(b_, c.gamma), norm(b_, c.norm), g_y(b_, gy), gs(b_, m * d), gr(b_, m),
        pk(b_, m * s * d), pv(b_, m * s * d), palpha(b_, m * s), gq(b_, s * d), gk(b_, s * d), gv(b_, s * d),
        galpha(b_, s);
    LatticeArgs args{};
    args.variant = write_variant(cfg.lattice_variant), args.s = s, args.d = d, args.m = m;
    args.k = k.get(), args.v = v.get(), args.q = q.get(), args.alpha = alpha.get(), args.slots = slots.get();
    args.score = score.get(), args.w = w.get(), args.gamma = gamma.get(), args.norm = norm.get();
    args.gy = g_y.get(), args.gs = gs.get(), args.gr = gr.get(), args.pk = pk.get(), args.pv = pv.get();
    args.palpha = palpha.get(), args.gq = gq.get();
    launch_phased<PhasedId::lattice_backward>(b_, args, s);
    launch<KernelId::reduce_rows>(b_, {pk.get(), m, s * d, gk.get()}, s * d);
    launch<KernelId::reduce_rows>(b_, {pv.get(), m, s * d, gv.get()}, s * d);
    launch<KernelId::reduce_rows>(b_, {palpha.get(), m, s, galpha.get()}, s);
    b_.synchronize();
    nl::FrontGrads<float> g(s, d);
    g.k = gk.to_host(), g.v = gv.to_host(), g.q = gq.to_host(), g.alpha = galpha.to_host();
    nl::ChunkGrads<float> out{{}, nl::LevelParams<float>::zeros(d, false)};
    out.x = nl::front_backward<float>(RuleKind::lattice, s, x, p, c.front, g, out.params);
    return out;
  }

 private:
  Backend& b_;
};

}  // namespace

std::unique_ptr<nl::KernelPair> make_lattice_pair(Backend& backend) { return std::make_unique<LatticePair>(backend); }

}  // namespace gpu
