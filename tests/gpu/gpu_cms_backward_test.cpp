// gpu_cms_backward (level recurrences and SWA on a backend) against the tape's gradient of the
// same MAG chunk, and against nl's hand-written cms_backward, for the rules with kernel pairs,
// K = 1, 2, 4 with mixed active and frozen levels, stress parameters and random context. Also
// the tape path with the kernel pairs installed: traced_cms_forward dispatches the active levels
// through the seam, and its gradient must equal the tape's without them.
#include "gpu/gpu_cms_backward.hpp"
#include "gpu/kernel_pairs.hpp"
#include "gpu_check.hpp"
#include "nl/mag_check.hpp"
#include "nl/traced_cms_forward.hpp"

namespace {

constexpr nl::RuleKind kRules[] = {nl::RuleKind::delta,  nl::RuleKind::titans, nl::RuleKind::hebbian,
                                   nl::RuleKind::moneta, nl::RuleKind::yaad,   nl::RuleKind::memora,
                                   nl::RuleKind::lattice, nl::RuleKind::trellis, nl::RuleKind::atlas};

void check_rule(gpu::Backend& backend, nl::RuleKind rule, std::size_t k) {
  const nl::MagConfig cfg = nltest::mag_config(rule, k);
  const nl::MagParams<float> params = nltest::stress_params(cfg).cast<float>();
  const nl::ContextMemory<float> context = nltest::cast_context<float>(nltest::stress_context(cfg, 7));
  const auto ids = nltest::chunk_ids(cfg), targets = nltest::chunk_targets(cfg);
  const nl::Pulse pulse = nltest::mixed_pulse(k);
  const std::string name = std::string(nl::to_string(rule)) + " K=" + std::to_string(k) + " on " + backend.name();

  nl::uninstall_kernel_pair(rule);
  auto tape = nl::tape_gradients(nltest::registry(), cfg, params, ids, targets, pulse, context);
  REQUIRE(tape.ok());
  auto f = nl::cms_forward<float>(cfg, params, ids, targets, pulse, context);
  REQUIRE(f.ok());
  const nl::MagGradients<float> hand = nl::cms_backward<float>(cfg, params, *f);
  auto ours = gpu::gpu_cms_backward(backend, cfg, params, *f, context);
  REQUIRE(ours.ok());
  const std::vector<float> want = nltest::full_gradient(tape->grads, pulse);
  gputest::require_close(nltest::full_gradient(*ours, pulse), want, name + " gpu_cms_backward vs tape");
  gputest::require_close(nltest::full_gradient(*ours, pulse), nltest::full_gradient(hand, pulse),
                         name + " gpu_cms_backward vs cms_backward");

  nl::install_kernel_pair(rule, gpu::make_kernel_pair(rule, backend));
  auto through_seam = nl::tape_gradients(nltest::registry(), cfg, params, ids, targets, pulse, context);
  nl::uninstall_kernel_pair(rule);
  REQUIRE(through_seam.ok());
  CHECK(std::fabs(through_seam->loss - tape->loss) <= 1e-5f * std::fabs(tape->loss));
  gputest::require_close(nltest::full_gradient(through_seam->grads, pulse), want, name + " tape with kernel pairs");
  for (std::size_t l = 0; l < k; ++l) {
    gputest::require_close(through_seam->context_after.levels[l], tape->context_after.levels[l],
                           name + " context after, level " + std::to_string(l));
  }
}

void check_all(gpu::Backend& backend) {
  for (nl::RuleKind rule : kRules)
    for (std::size_t k : {1, 2, 4}) check_rule(backend, rule, k);
}

}  // namespace

TEST_CASE("gpu_cms_backward: CPU-launched equals the tape's gradient (all nine rules, K=1,2,4, mixed levels)") {
  check_all(gpu::cpu_backend());
}

TEST_CASE("gpu_cms_backward: CUDA-launched equals the tape's gradient") {
  if (gpu::Backend* cuda = gputest::cuda_or_skip("gpu_cms_backward")) check_all(*cuda);
}
