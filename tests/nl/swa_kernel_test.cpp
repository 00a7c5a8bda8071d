// The SwaKernel seam: an installed kernel runs the Opaque(SWA) block's forward, and the block's
// backward goes back to that kernel by its saved handle, even after another is installed or none;
// uninstalled, record_swa is nl's own swa_forward / swa_backward again, bit for bit.
#include "nl/swa_kernel.hpp"

#include <atomic>

#include "rule_check.hpp"

namespace {

// nl's own SWA with every output scaled by `k`, so which kernel ran is visible in the numbers.
class ScaledSwa final : public nl::SwaKernel {
 public:
  explicit ScaledSwa(float k, std::atomic<int>* backwards) : k_(k), backwards_(backwards) {}
  [[nodiscard]] std::string_view device() const override { return "scaled"; }
  [[nodiscard]] nl::SwaForward<float> forward(const nl::SwaShape& sh, std::span<const float> q, std::span<const float> k,
                                              std::span<const float> v) const override {
    nl::SwaForward<float> f = nl::swa_forward<float>(sh, q, k, v);
    for (float& x : f.a) x *= k_;
    return f;
  }
  void backward(const nl::SwaShape& sh, std::span<const float> q, std::span<const float> k, std::span<const float> v,
                std::span<const float> p, std::span<const float> ga, std::span<float> gq, std::span<float> gk,
                std::span<float> gv) const override {
    ++*backwards_;
    std::vector<float> scaled(ga.begin(), ga.end());
    for (float& x : scaled) x *= k_;
    nl::swa_backward<float>(sh, q, k, v, p, scaled, gq, gk, gv);
  }

 private:
  float k_;
  std::atomic<int>* backwards_;
};

struct SwaRun {
  std::vector<float> a, gq, gk, gv;
};

// Records the block, then calls `between` (which may swap kernels) before the backward.
SwaRun run_swa(const nl::SwaShape& sh, const std::vector<float>& q, const std::vector<float>& k,
               const std::vector<float>& v, const std::vector<float>& w, const std::function<void()>& between) {
  SwaRun r;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tq = t.register_input(q, {sh.s, sh.d}), tk = t.register_input(k, {sh.s, sh.d}),
                       tv = t.register_input(v, {sh.s, sh.d});
    const tape::Tensor a = nl::record_swa(nltest::registry(), sh, tq, tk, tv);
    between();
    r.a = a.to_vector();
    t.backward(a.id(), w);
    r.gq = t.get_grad(tq.id()), r.gk = t.get_grad(tk.id()), r.gv = t.get_grad(tv.id());
  });
  return r;
}

std::vector<float> times(std::vector<float> v, float k) {
  for (float& x : v) x *= k;
  return v;
}

}  // namespace

TEST_CASE("swa_kernel: an installed kernel runs the block both ways; its handle routes the backward") {
  const nl::SwaShape sh{6, 4, 2, 3};
  std::mt19937 rng(3);
  const std::size_t n = sh.s * sh.d;
  const std::vector<float> q = nltest::cast<float>(nltest::uniform(n, 1.5, rng)), k = nltest::cast<float>(nltest::uniform(n, 1.5, rng)),
                           v = nltest::cast<float>(nltest::uniform(n, 1.0, rng)), w = nltest::cast<float>(nltest::uniform(n, 1.0, rng));
  nl::uninstall_swa_kernel();
  const SwaRun own = run_swa(sh, q, k, v, w, [] {});
  std::atomic<int> backwards{0};
  nl::install_swa_kernel(std::make_unique<ScaledSwa>(2.0f, &backwards));
  REQUIRE(nl::installed_swa_kernel().has_value());
  CHECK(nl::installed_swa_kernel()->kernel->device() == "scaled");
  // Installed for the whole block: y and every gradient scaled by 2 (exactly: a power of two).
  const SwaRun two = run_swa(sh, q, k, v, w, [] {});
  CHECK(two.a == times(own.a, 2.0f));
  CHECK(two.gq == times(own.gq, 2.0f));
  CHECK(two.gv == times(own.gv, 2.0f));
  CHECK(backwards == 1);
  // Replaced, then uninstalled, between forward and backward: the block's own kernel still runs.
  std::atomic<int> other{0};
  const SwaRun swapped = run_swa(sh, q, k, v, w, [&] { nl::install_swa_kernel(std::make_unique<ScaledSwa>(4.0f, &other)); });
  CHECK(swapped.gk == times(own.gk, 2.0f));
  CHECK(backwards == 2);
  CHECK(other == 0);
  const SwaRun gone = run_swa(sh, q, k, v, w, [] { nl::uninstall_swa_kernel(); });
  CHECK(gone.gk == times(own.gk, 4.0f));  // recorded under the 4x kernel installed above
  CHECK(other == 1);
  // Uninstalled: nl's own code again, bit for bit.
  REQUIRE(!nl::installed_swa_kernel().has_value());
  const SwaRun back = run_swa(sh, q, k, v, w, [] {});
  CHECK(back.a == own.a);
  CHECK(back.gq == own.gq);
  CHECK(back.gk == own.gk);
  CHECK(back.gv == own.gv);
  CHECK(nl::swa_kernel_by_handle(1000) == nullptr);
}
