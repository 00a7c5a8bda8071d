// The head and loss kernels (products through Backend::gemm, bodies/softmax_ce.hpp) against the
// tape's three ops (MatmulTransposeB, Matmul, CrossEntropy): the loss and the three gradients,
// with ignored (padding) targets. On the CPU launcher the arithmetic is the host's, operation for
// operation (same BLAS calls, same softmax order, same double sum): the same bits.
#include <limits>
#include <random>

#include "gpu/head_loss_kernels.hpp"
#include "gpu_check.hpp"
#include "nl/rule_check.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/tape.hpp"

namespace {

struct HeadOracle {
  float loss;
  std::vector<float> gz, gw, gu;
};

constexpr float kUpstream = 0.625f;  // the loss's upstream gradient (not 1)

HeadOracle tape_head(const nl::HeadShape& sh, const std::vector<float>& z, const std::vector<float>& w,
                     const std::vector<float>& u, const std::vector<std::size_t>& targets) {
  HeadOracle o;
  tape::with_tape([&](tape::Tape& t) {
    using namespace tape::ops;
    const tape::Tensor tz = t.register_param(z, {sh.s, sh.d}), tw = t.register_param(w, {sh.d, sh.d}),
                       tu = t.register_param(u, {sh.d, sh.vocab});
    const tape::Tensor loss = cross_entropy(matmul(matmul_transpose_b(tz, tw), tu), targets);
    o.loss = loss.item();
    t.backward(scale(loss, kUpstream).id());
    o.gz = t.get_grad(tz.id()), o.gw = t.get_grad(tw.id()), o.gu = t.get_grad(tu.id());
  });
  return o;
}

void check_head(gpu::Backend& backend, const nl::HeadShape& sh, unsigned seed, bool same_bits) {
  std::mt19937 rng(seed);
  const std::vector<float> z = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.0, rng)),
                           w = nltest::cast<float>(nltest::uniform(sh.d * sh.d, 0.5, rng)),
                           u = nltest::cast<float>(nltest::uniform(sh.d * sh.vocab, 0.5, rng));
  std::vector<std::size_t> targets;
  for (std::size_t i = 0; i < sh.s; ++i) targets.push_back((i * 5 + seed) % sh.vocab);
  targets[1] = sh.vocab;                                        // padding
  targets[sh.s - 1] = std::numeric_limits<std::size_t>::max();  // padding
  const HeadOracle want = tape_head(sh, z, w, u, targets);
  const std::vector<float> ft = nl::encode_head_targets(targets, sh.vocab);
  const std::string name = std::string("head on ") + backend.name() + " s=" + std::to_string(sh.s) +
                           " d=" + std::to_string(sh.d) + " V=" + std::to_string(sh.vocab);
  const nl::HeadForward f = gpu::head_loss_forward(backend, sh, z, w, u, ft);
  gputest::require_close({f.loss}, {want.loss}, name + " loss");
  const gpu::HeadGrads g = gpu::head_loss_backward(backend, sh, z, w, u, f.pj, f.probs, ft, kUpstream);
  gputest::require_close(g.z, want.gz, name + " grad z");
  gputest::require_close(g.w_o, want.gw, name + " grad w_o");
  gputest::require_close(g.u_emb, want.gu, name + " grad u_emb");
  if (same_bits) {
    INFO(name);
    CHECK(f.loss == want.loss);
    CHECK(g.z == want.gz);
    CHECK(g.w_o == want.gw);
    CHECK(g.u_emb == want.gu);
  }
}

void check_all_heads(gpu::Backend& b, bool same_bits) {
  check_head(b, {4, 8, 16}, 1, same_bits);
  check_head(b, {16, 16, 256}, 2, same_bits);  // nltrain's byte vocabulary
  check_head(b, {9, 32, 1000}, 3, same_bits);  // a configured vocabulary
}

}  // namespace

TEST_CASE("head_loss: CPU-launched kernels give the tape's loss and gradients bit for bit") {
  check_all_heads(gpu::cpu_backend(), true);
}

TEST_CASE("head_loss: with every target ignored the kernels give loss 0 and no gradient") {
  const nl::HeadShape sh{3, 2, 4};
  const std::vector<float> z{1, 0, 0, 1, 1, 1}, w{1, 0, 0, 1}, u{0, 1, 2, 3, 3, 2, 1, 0};
  const std::vector<float> all_ignored{4, 4, 4};
  const nl::HeadForward none = gpu::head_loss_forward(gpu::cpu_backend(), sh, z, w, u, all_ignored);
  CHECK(none.loss == 0.0f);
  const gpu::HeadGrads g = gpu::head_loss_backward(gpu::cpu_backend(), sh, z, w, u, none.pj, none.probs, all_ignored, 1.0f);
  for (float x : g.u_emb) CHECK(x == 0.0f);
}

TEST_CASE("head_loss: CUDA-launched kernels equal the tape's loss and gradients") {
  if (gpu::Backend* cuda = gputest::cuda_or_skip("head_loss")) check_all_heads(*cuda, false);
}
