// SWA kernel bodies against the tape's Opaque(SWA) block (the hand-written swa_backward).
#include <random>

#include "gpu/swa_kernels.hpp"
#include "gpu_check.hpp"
#include "nl/rule_check.hpp"
#include "tape/tape.hpp"

namespace {

void check_swa(gpu::Backend& backend, const nl::SwaShape& sh, unsigned seed) {
  REQUIRE(nl::validate(sh).ok());
  std::mt19937 rng(seed);
  const std::vector<float> q = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.5, rng)),
                           k = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.5, rng)),
                           v = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.0, rng)),
                           w = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.0, rng));
  std::vector<float> a, gq, gk, gv;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tq = t.register_input(q, {sh.s, sh.d}), tk = t.register_input(k, {sh.s, sh.d}),
                       tv = t.register_input(v, {sh.s, sh.d});
    const tape::Tensor out = nl::record_swa(nltest::registry(), sh, tq, tk, tv);
    a = out.to_vector();
    t.backward(out.id(), w);
    gq = t.get_grad(tq.id()), gk = t.get_grad(tk.id()), gv = t.get_grad(tv.id());
  });
  const std::string name = std::string("swa on ") + backend.name() + " s=" + std::to_string(sh.s) +
                           " heads=" + std::to_string(sh.heads) + " window=" + std::to_string(sh.window);
  const nl::SwaForward<float> f = gpu::swa_forward(backend, sh, q, k, v);
  gputest::require_close(f.a, a, name + " output");
  const gpu::SwaGrads g = gpu::swa_backward(backend, sh, q, k, v, f.p, w);
  gputest::require_close(g.q, gq, name + " grad q");
  gputest::require_close(g.k, gk, name + " grad k");
  gputest::require_close(g.v, gv, name + " grad v");
}

void check_all_swa(gpu::Backend& b) {
  check_swa(b, {4, 8, 2, 4}, 1);   // nltrain-math's small configuration, full window
  check_swa(b, {7, 6, 3, 3}, 2);   // short window: keys leave it
  check_swa(b, {9, 10, 2, 1}, 3);  // window 1: attention to self only
  check_swa(b, {12, 16, 4, 5}, 4);
}

}  // namespace

TEST_CASE("swa: CPU-launched kernel bodies equal the tape's gradient") { check_all_swa(gpu::cpu_backend()); }

TEST_CASE("swa: CUDA-launched kernel bodies equal the tape's gradient") {
  if (gpu::Backend* cuda = gputest::cuda_or_skip("swa")) check_all_swa(*cuda);
}
