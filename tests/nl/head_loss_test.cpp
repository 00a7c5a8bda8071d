// The Opaque(HeadLoss) block: with no HeadKernel installed it is the three tape ops it replaced
// (MatmulTransposeB, Matmul, CrossEntropy) bit for bit, ignored targets included; an installed
// kernel runs its forward and, by the saved handle, its backward; bad shapes are refused.
#include "nl/head_loss.hpp"

#include <atomic>
#include <limits>
#include <random>

#include "nl/head_kernel.hpp"
#include "rule_check.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/softmax.hpp"

namespace {

struct HeadCase {
  std::size_t s, d, V;
  std::vector<float> z, w_o, u;
  std::vector<std::size_t> targets;
};

HeadCase head_case(std::size_t s, std::size_t d, std::size_t V, unsigned seed) {
  std::mt19937 rng(seed);
  HeadCase c{s, d, V, nltest::cast<float>(nltest::uniform(s * d, 1.0, rng)),
             nltest::cast<float>(nltest::uniform(d * d, 0.5, rng)), nltest::cast<float>(nltest::uniform(d * V, 0.5, rng)), {}};
  for (std::size_t i = 0; i < s; ++i) c.targets.push_back((i * 7 + seed) % V);
  return c;
}

struct HeadRun {
  float loss;
  std::vector<float> gz, gw, gu;
};

// `head` records the loss from the three registered tensors; the loss is scaled by 0.75 before
// backward so the upstream gradient is not 1.
template <typename Head>
HeadRun run(const HeadCase& c, Head head) {
  HeadRun r;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor z = t.register_param(c.z, {c.s, c.d}), w = t.register_param(c.w_o, {c.d, c.d}),
                       u = t.register_param(c.u, {c.d, c.V});
    const tape::Tensor loss = head(z, w, u);
    r.loss = loss.item();
    t.backward(tape::ops::scale(loss, 0.75f).id());
    r.gz = t.get_grad(z.id()), r.gw = t.get_grad(w.id()), r.gu = t.get_grad(u.id());
  });
  return r;
}

HeadRun three_ops(const HeadCase& c) {
  return run(c, [&](const tape::Tensor& z, const tape::Tensor& w, const tape::Tensor& u) {
    using namespace tape::ops;
    return cross_entropy(matmul(matmul_transpose_b(z, w), u), c.targets);
  });
}

HeadRun block(const HeadCase& c) {
  return run(c, [&](const tape::Tensor& z, const tape::Tensor& w, const tape::Tensor& u) {
    return nl::record_head_loss(nltest::registry(), z, w, u, c.targets);
  });
}

void require_same_bits(const HeadRun& a, const HeadRun& b) {
  CHECK(a.loss == b.loss);
  CHECK(a.gz == b.gz);
  CHECK(a.gw == b.gw);
  CHECK(a.gu == b.gu);
}

}  // namespace

TEST_CASE("head_loss: the block is MatmulTransposeB, Matmul and CrossEntropy bit for bit, ignored targets included") {
  for (const auto& [s, d, V] : {std::array<std::size_t, 3>{4, 8, 16}, {9, 16, 256}, {16, 32, 300}}) {
    INFO("s=" << s << " d=" << d << " V=" << V);
    HeadCase c = head_case(s, d, V, static_cast<unsigned>(s + d));
    require_same_bits(block(c), three_ops(c));
    c.targets[1] = V;  // padding ids: ignored, wherever they lie above the vocabulary
    c.targets[s - 1] = std::numeric_limits<std::size_t>::max();
    const HeadRun padded = block(c);
    require_same_bits(padded, three_ops(c));
    CHECK(padded.gu != block(head_case(s, d, V, static_cast<unsigned>(s + d))).gu);
  }
}

TEST_CASE("head_loss: with every target ignored the loss is 0 and no gradient flows") {
  HeadCase c = head_case(5, 8, 16, 3);
  for (std::size_t& t : c.targets) t = 16;
  const HeadRun r = block(c);
  CHECK(r.loss == 0.0f);
  for (const auto* g : {&r.gz, &r.gw, &r.gu})
    for (float x : *g) CHECK(x == 0.0f);
  require_same_bits(r, three_ops(c));
}

TEST_CASE("head_loss: targets travel as floats, ignored ones as the vocabulary size") {
  const std::vector<std::size_t> t{0, 5, 16, 17, std::numeric_limits<std::size_t>::max(), 15};
  CHECK(nl::encode_head_targets(t, 16) == std::vector<float>{0, 5, 16, 16, 16, 15});
  CHECK(nl::count_valid_targets(nl::encode_head_targets(t, 16), 16) == 3);
  CHECK(nl::decode_head_shape(nl::encode_head_shape({7, 32, 1u << 20})).vocab == (1u << 20));
}

TEST_CASE("head_loss: shapes, target counts and a vocabulary of 2^24 are refused naming the block") {
  const HeadCase c = head_case(4, 8, 16, 1);
  auto refused = [&](std::vector<float> z, tape::Shape zs, tape::Shape ws, tape::Shape us, std::size_t n_targets,
                     const char* what) {
    INFO(what);
    std::string msg;
    tape::with_tape([&](tape::Tape& t) {
      std::vector<float> w(ws.numel(), 0.1f), u(us.numel(), 0.1f);
      const tape::Tensor tz = t.register_param(z, zs), tw = t.register_param(w, ws), tu = t.register_param(u, us);
      const std::vector<std::size_t> targets(n_targets, 0);
      try {
        (void)nl::record_head_loss(nltest::registry(), tz, tw, tu, targets);
      } catch (const tape::TapeError& e) {
        msg = e.what();
      }
    });
    CHECK(msg.rfind("Opaque(HeadLoss): ", 0) == 0);
    return msg;
  };
  (void)refused(c.z, {4, 8}, {8, 4}, {8, 16}, 4, "W_o not d x d");
  (void)refused(c.z, {4, 8}, {8, 8}, {4, 16}, 4, "U_emb not d x V");
  (void)refused(c.z, {32}, {8, 8}, {8, 16}, 4, "Z of rank 1");
  CHECK(refused(c.z, {4, 8}, {8, 8}, {8, 16}, 3, "3 targets").find("3 targets for 4 rows") != std::string::npos);
  CHECK(refused({0.5f}, {1, 1}, {1, 1}, {1, std::size_t{1} << 24}, 1, "vocab 2^24").find("saved as floats") !=
        std::string::npos);
}

TEST_CASE("head_loss: a non-finite product or loss is reported as the three tape ops reported it") {
  // Pj overflows (MatmulTransposeB), then only the logits (Matmul).
  for (const auto& [zv, uv] : {std::pair<float, float>{1e38f, 0.5f}, {3e18f, 3e19f}}) {
    HeadCase c = head_case(3, 4, 8, 2);
    for (float& x : c.z) x = zv;
    for (float& x : c.u) x = uv;
    for (float& x : c.w_o) x = 1.0f;
    auto message = [&](auto head) {
      std::string msg;
      try {
        (void)run(c, head);
      } catch (const tape::NonFiniteError& e) {
        msg = e.what();
      }
      return msg;
    };
    const std::string want = message([&](const tape::Tensor& z, const tape::Tensor& w, const tape::Tensor& u) {
      using namespace tape::ops;
      return cross_entropy(matmul(matmul_transpose_b(z, w), u), c.targets);
    });
    INFO(want);
    CHECK(!want.empty());
    CHECK(message([&](const tape::Tensor& z, const tape::Tensor& w, const tape::Tensor& u) {
            return nl::record_head_loss(nltest::registry(), z, w, u, c.targets);
          }) == want);
  }
}

namespace {

// nl's own head with the loss doubled, so which code ran is visible in the numbers.
class DoubledHead final : public nl::HeadKernel {
 public:
  explicit DoubledHead(std::atomic<int>* backwards) : backwards_(backwards) {}
  [[nodiscard]] std::string_view device() const override { return "doubled"; }
  [[nodiscard]] nl::HeadForward forward(const nl::HeadShape& sh, std::span<const float> z, std::span<const float> w_o,
                                        std::span<const float> u, std::span<const float> targets) const override {
    std::vector<std::size_t> ids(targets.begin(), targets.end());
    nl::HeadForward f = nl::head_loss_forward(sh, z, w_o, u, ids);
    f.loss *= 2;
    return f;
  }
  void backward(const nl::HeadShape& sh, std::span<const float> z, std::span<const float> w_o, std::span<const float> u,
                std::span<const float> pj, std::span<const float> probs, std::span<const float> targets, float g,
                std::span<float> gz, std::span<float> gw, std::span<float> gu) const override {
    ++*backwards_;
    nl::head_loss_backward(sh, z, w_o, u, pj, probs, targets, 2 * g, gz, gw, gu);
  }

 private:
  std::atomic<int>* backwards_;
};

}  // namespace

TEST_CASE("head_kernel: an installed kernel runs the block; its backward is found by handle after uninstalling") {
  const HeadCase c = head_case(6, 8, 16, 5);
  const HeadRun own = block(c);
  std::atomic<int> backwards{0};
  REQUIRE(!nl::installed_head_kernel().has_value());
  const std::size_t handle = nl::install_head_kernel(std::make_unique<DoubledHead>(&backwards));
  REQUIRE(nl::installed_head_kernel()->handle == handle);
  CHECK(nl::installed_head_kernel()->kernel->device() == "doubled");
  const HeadRun doubled = run(c, [&](const tape::Tensor& z, const tape::Tensor& w, const tape::Tensor& u) {
    tape::Tensor loss = nl::record_head_loss(nltest::registry(), z, w, u, c.targets);
    nl::uninstall_head_kernel();  // the block keeps its kernel
    return loss;
  });
  CHECK(backwards == 1);
  CHECK(doubled.loss == 2 * own.loss);
  for (std::size_t i = 0; i < own.gu.size(); ++i) CHECK(doubled.gu[i] == 2 * own.gu[i]);
  CHECK(nl::head_kernel_by_handle(handle) != nullptr);
  CHECK(nl::head_kernel_by_handle(handle + 1) == nullptr);
  require_same_bits(block(c), own);  // uninstalled: nl's own again
}
