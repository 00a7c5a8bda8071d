// Rule 15: skipping the engine-recompute differential needs a named basis. When
// fixture_status.verification_state is "engine_recompute_skipped_with_basis", attestor.skip_basis
// must be a non-empty string from the closed enum below.
#include <array>
#include <string_view>

#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

constexpr std::array<std::string_view, 4> kExternalTrustBasis = {
    "hardware_nondeterminism", "framework_op_unsupported", "distributed_only_field", "attested_third_party"};

std::string enum_list() {
  std::string out = "[";
  for (std::size_t i = 0; i < kExternalTrustBasis.size(); ++i) {
    if (i) out += ", ";
    out += kExternalTrustBasis[i];
  }
  return out + "]";
}

}  // namespace

void check_rule_15_skip_basis(RuleContext& ctx) {
  const Json* status = member(ctx.receipt, "fixture_status");
  const auto state = status ? string_member(*status, "verification_state") : std::nullopt;
  if (!state || *state != "engine_recompute_skipped_with_basis") return;
  const Json* attestor = member(ctx.receipt, "attestor");
  const Json* basis = attestor ? member(*attestor, "skip_basis") : nullptr;
  const auto text = as_string(basis);
  if (!text || text->empty()) {
    ctx.failures.add(plain_failure(
        15, "attestor.skip_basis",
        std::string("Rule 15 (skip-basis required): fixture_status.verification_state is "
                    "\"engine_recompute_skipped_with_basis\" but attestor.skip_basis is ") +
            (basis ? "empty (" + basis->dump() + ")" : std::string("absent")) +
            ". Name the basis from the closed enum EXTERNAL_TRUST_BASIS = " + enum_list() + " on the record."));
    return;
  }
  for (auto allowed : kExternalTrustBasis) {
    if (*text == allowed) return;
  }
  ctx.failures.add(plain_failure(15, "attestor.skip_basis",
                                 "Rule 15 (skip-basis required): attestor.skip_basis=" + Tree(std::string(*text)).dump() +
                                     " is not in the closed enum EXTERNAL_TRUST_BASIS = " + enum_list() + "."));
}

}  // namespace reconcile::rules
