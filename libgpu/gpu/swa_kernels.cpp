#include "gpu/swa_kernels.hpp"

namespace gpu {

nl::SwaForward<float> swa_forward(Backend& b, const nl::SwaShape& sh, std::span<const float> q,
                                  std::span<const float> k, std::span<const float> v) {
  Buffer bq(b, q), bk(b, k), bv(b, v), p(b, sh.heads * sh.s * sh.window), a(b, sh.s * sh.d);
  SwaArgs args{sh.s, sh.d, sh.heads, sh.window, bq.get(), bk.get(), bv.get(), p.get(), a.get(),
               nullptr, nullptr, nullptr, nullptr, nullptr};
  launch<KernelId::swa_forward>(b, args, sh.heads * sh.s);
  b.synchronize();
  return {a.to_host(), p.to_host()};
}

SwaGrads swa_backward(Backend& b, const nl::SwaShape& sh, std::span<const float> q, std::span<const float> k,
                      std::span<const float> v, std::span<const float> p, std::span<const float> ga) {
  Buffer bq(b, q), bk(b, k), bv(b, v), bp(b, p), bga(b, ga), gscore(b, sh.heads * sh.s * sh.window),
      gq(b, sh.s * sh.d), gk(b, sh.s * sh.d), gv(b, sh.s * sh.d);
  SwaArgs args{sh.s,    sh.d,      sh.heads,   sh.window, bq.get(), bk.get(), bv.get(),
               bp.get(), nullptr,  bga.get(),  gscore.get(), gq.get(), gk.get(), gv.get()};
  launch<KernelId::swa_backward_query>(b, args, sh.heads * sh.s);
  launch<KernelId::swa_backward_key>(b, args, sh.heads * sh.s);
  b.synchronize();
  return {gq.to_host(), gk.to_host(), gv.to_host()};
}

}  // namespace gpu
