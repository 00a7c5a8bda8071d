// The matrix-rule kernel pairs through nl's KernelPair seam, against the tape: the same block
// recorded with the rule's own forward and hand-written VJP (the oracle) and with the kernel pair
// installed must give the same y, final state and gradients of x and the level parameters.
#include "gpu/kernel_pairs.hpp"
#include "gpu_check.hpp"
#include "nl/record_block.hpp"
#include "nl/rule_dispatch.hpp"
#include "nl/rule_check.hpp"
#include "tape/tape.hpp"

namespace {

struct TapeResult {
  std::vector<float> y, final_state, gx, gp;
};

TapeResult run_on_tape(nl::RuleKind kind, const nl::RuleConfig& cfg, const nltest::RuleInputs& in) {
  const std::vector<float> x = nltest::cast<float>(in.x), flat = nltest::cast<float>(in.params),
                           state = nltest::cast<float>(in.state), w = nltest::cast<float>(in.w);
  TapeResult r;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tx = t.register_input(x, {in.s, cfg.d});
    const tape::Tensor tp = t.register_param(flat, {flat.size()});
    const nl::RecordedChunk rec = nl::record_active(nltest::registry(), kind, cfg, tx, tp, state);
    r.y = rec.y.to_vector();
    r.final_state = rec.final_state;
    t.backward(rec.y.id(), w);
    r.gx = t.get_grad(tx.id());
    r.gp = t.get_grad(tp.id());
  });
  return r;
}

struct ExactResult {
  std::vector<double> y, final_state, gx, gp;
};

// The same block in fp64 through the rule's own forward and hand-written backward: the truth
// the fp32 paths are judged against.
ExactResult run_exact(nl::RuleKind kind, const nl::RuleConfig& cfg, const nltest::RuleInputs& in) {
  return nl::visit_rule(kind, [&]<template <typename> class R>() {
    const auto p = nl::LevelParams<double>::from_flat(in.params, cfg.d, nl::has_omega(kind)).value();
    auto f = R<double>::forward(cfg, in.s, in.x, p, in.state);
    const nl::ChunkGrads<double> g = R<double>::step_backward(cfg, in.s, in.x, p, f.cache, in.w);
    return ExactResult{f.y, f.final_state, g.x, g.params.to_flat()};
  });
}

void check_pair(nl::RuleKind kind, gpu::Backend& backend, const nl::RuleConfig& cfg, std::size_t s, unsigned seed) {
  const nltest::RuleInputs in = nltest::stress_inputs(kind, cfg, s, seed);
  nl::uninstall_kernel_pair(kind);
  const TapeResult want = run_on_tape(kind, cfg, in);
  nl::install_kernel_pair(kind, gpu::make_kernel_pair(kind, backend));
  const TapeResult got = run_on_tape(kind, cfg, in);
  nl::uninstall_kernel_pair(kind);
  const std::string name = std::string(nl::to_string(kind)) + " on " + backend.name() + " d=" + std::to_string(cfg.d) +
                           " s=" + std::to_string(s);
  const ExactResult exact = run_exact(kind, cfg, in);
  gputest::require_as_accurate(got.y, want.y, exact.y, name + " y");
  gputest::require_as_accurate(got.final_state, want.final_state, exact.final_state, name + " final state");
  gputest::require_as_accurate(got.gx, want.gx, exact.gx, name + " grad x");
  gputest::require_as_accurate(got.gp, want.gp, exact.gp, name + " grad level params");
}

nl::RuleConfig width(std::size_t d) {
  nl::RuleConfig cfg = nltest::small_config();
  cfg.d = d;
  return cfg;
}

constexpr nl::RuleKind kPairRules[] = {nl::RuleKind::delta, nl::RuleKind::titans, nl::RuleKind::hebbian, nl::RuleKind::moneta, nl::RuleKind::yaad, nl::RuleKind::memora,
                                         nl::RuleKind::lattice, nl::RuleKind::trellis, nl::RuleKind::atlas};

void check_all_rules(gpu::Backend& backend) {
  for (nl::RuleKind kind : kPairRules) {
    REQUIRE(gpu::has_kernel_pair(kind));
    check_pair(kind, backend, nltest::small_config(), 6, 11);  // d=5: every size distinct
    check_pair(kind, backend, width(8), 4, 12);                // nltrain-math's small configuration
    check_pair(kind, backend, width(16), 9, 13);
  }
  nl::RuleConfig lp = nltest::small_config();  // Moneta's l_p bias away from p = 2 (tanh, pow)
  lp.p = 3.0;
  check_pair(nl::RuleKind::moneta, backend, lp, 6, 14);
  for (nl::LatticeVariant v : {nl::LatticeVariant::encode, nl::LatticeVariant::similarity}) {
    nl::RuleConfig cfg = nltest::small_config();  // decode is the default, checked above
    cfg.lattice_variant = v;
    check_pair(nl::RuleKind::lattice, backend, cfg, 6, 15);
  }
}

}  // namespace

TEST_CASE("rule pairs: CPU-launched kernel pairs equal the tape's gradient (every rule with kernel bodies)") {
  check_all_rules(gpu::cpu_backend());
}

TEST_CASE("rule pairs: CUDA-launched kernel pairs equal the tape's gradient") {
  if (gpu::Backend* cuda = gputest::cuda_or_skip("rule pairs")) check_all_rules(*cuda);
}

TEST_CASE("kernel pair seam: a block keeps the pair it was recorded with") {
  const nl::RuleKind kind = nl::RuleKind::delta;
  const nl::RuleConfig cfg = nltest::small_config();
  const nltest::RuleInputs in = nltest::stress_inputs(kind, cfg, 5, 21);
  const std::vector<float> x = nltest::cast<float>(in.x), flat = nltest::cast<float>(in.params),
                           state = nltest::cast<float>(in.state), w = nltest::cast<float>(in.w);
  const TapeResult want = run_on_tape(kind, cfg, in);
  tape::with_tape([&](tape::Tape& t) {
    nl::install_kernel_pair(kind, gpu::make_kernel_pair(kind, gpu::cpu_backend()));
    const tape::Tensor tx = t.register_input(x, {in.s, cfg.d});
    const tape::Tensor tp = t.register_param(flat, {flat.size()});
    const nl::RecordedChunk rec = nl::record_active(nltest::registry(), kind, cfg, tx, tp, state);
    nl::uninstall_kernel_pair(kind);  // the backward still runs the pair's, not the rule's
    t.backward(rec.y.id(), w);
    gputest::require_close(t.get_grad(tx.id()), want.gx, "grad x");
  });
  CHECK_FALSE(nl::installed_kernel_pair(kind).has_value());
}

TEST_CASE("kernel pairs: every rule has one, on either backend") {
  for (nl::RuleKind kind : nl::kAllRuleKinds) {
    REQUIRE(gpu::has_kernel_pair(kind));
    const auto pair = gpu::make_kernel_pair(kind, gpu::cpu_backend());
    REQUIRE(pair != nullptr);
    CHECK(pair->device() == "cpu");
  }
}
