#include "nl/swa.hpp"

#include "rule_check.hpp"

namespace {

void check_swa(const nl::SwaShape& sh, unsigned seed) {
  std::mt19937 rng(seed);
  const std::size_t n = sh.s * sh.d;
  const std::vector<double> q = nltest::uniform(n, 1.5, rng), k = nltest::uniform(n, 1.5, rng),
                            v = nltest::uniform(n, 1.0, rng), w = nltest::uniform(n, 1.0, rng);
  const nl::SwaForward<double> f = nl::swa_forward<double>(sh, q, k, v);
  std::vector<double> gq(n, 0.0), gk(n, 0.0), gv(n, 0.0);
  nl::swa_backward<double>(sh, q, k, v, f.p, w, gq, gk, gv);
  nltest::FdReport r;
  nltest::fd_compare(r, "q", q, [&](const std::vector<double>& x) { return nltest::weighted_sum(nl::swa_forward<double>(sh, x, k, v).a, w); }, gq);
  nltest::fd_compare(r, "k", k, [&](const std::vector<double>& x) { return nltest::weighted_sum(nl::swa_forward<double>(sh, q, x, v).a, w); }, gk);
  nltest::fd_compare(r, "v", v, [&](const std::vector<double>& x) { return nltest::weighted_sum(nl::swa_forward<double>(sh, q, k, x).a, w); }, gv);
  nltest::require_pass(r, "SWA window " + std::to_string(sh.window) + " of " + std::to_string(sh.s));

  // Tape: the Opaque(SWA) block's gradients are the direct fp32 backward's, bit for bit.
  const std::vector<float> qf = nltest::cast<float>(q), kf = nltest::cast<float>(k), vf = nltest::cast<float>(v),
                           wf = nltest::cast<float>(w);
  const nl::SwaForward<float> ff = nl::swa_forward<float>(sh, qf, kf, vf);
  std::vector<float> gqf(n, 0.0f), gkf(n, 0.0f), gvf(n, 0.0f);
  nl::swa_backward<float>(sh, qf, kf, vf, ff.p, wf, gqf, gkf, gvf);
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tq = t.register_input(qf, {sh.s, sh.d}), tk = t.register_input(kf, {sh.s, sh.d}),
                       tv = t.register_input(vf, {sh.s, sh.d});
    const tape::Tensor a = nl::record_swa(nltest::registry(), sh, tq, tk, tv);
    CHECK(a.to_vector() == ff.a);
    t.backward(a.id(), wf);
    CHECK(t.get_grad(tq.id()) == gqf);
    CHECK(t.get_grad(tk.id()) == gkf);
    CHECK(t.get_grad(tv.id()) == gvf);
  });
}

}  // namespace

TEST_CASE("swa: backward matches fp64 finite differences (full and short window); tape block matches it bitwise") {
  check_swa({6, 8, 2, 6}, 41);
  check_swa({6, 8, 2, 3}, 42);
  check_swa({5, 6, 3, 1}, 43);
  // Head widths of whole and partial eight-lane blocks (the scores' dot8): 12 and 16.
  check_swa({6, 24, 2, 4}, 44);
  check_swa({5, 32, 2, 5}, 45);
}

TEST_CASE("swa: a window is a window (tokens beyond it have no influence)") {
  const nl::SwaShape sh{5, 4, 1, 2};
  std::mt19937 rng(3);
  const std::vector<double> q = nltest::uniform(20, 1, rng), k = nltest::uniform(20, 1, rng), v = nltest::uniform(20, 1, rng);
  std::vector<double> v2 = v;
  for (std::size_t j = 0; j < 4; ++j) v2[j] += 10;  // token 0 only reaches queries 0 and 1
  const auto a = nl::swa_forward<double>(sh, q, k, v).a, b = nl::swa_forward<double>(sh, q, k, v2).a;
  for (std::size_t i = 8; i < 20; ++i) CHECK(a[i] == b[i]);
  CHECK(a[0] != b[0]);
}

TEST_CASE("swa: bad shapes are errors naming the field") {
  CHECK(nl::validate(nl::SwaShape{4, 8, 2, 4}).ok());
  const auto msg = [](nl::SwaShape sh) { return nl::validate(sh).error().message(); };
  CHECK(msg({4, 8, 3, 4}).find("heads") != std::string::npos);
  CHECK(msg({4, 8, 2, 5}).find("window") != std::string::npos);
  CHECK(msg({4, 8, 2, 0}).find("window") != std::string::npos);
  CHECK(msg({0, 8, 2, 1}).find("seq_len") != std::string::npos);
  CHECK(msg({4, 0, 2, 1}).find("d") != std::string::npos);
  const std::vector<float> z(12, 0.0f);
  const tape::Tensor t = tape::Tensor::from(z, {3, 4});
  CHECK_THROWS_AS((void)nl::record_swa(nltest::registry(), nl::SwaShape{4, 4, 1, 4}, t, t, t), tape::TapeError);
}
