// Rule 16: attestation digest binding. When attestor.signed_subject_digest is a non-empty string it
// must be "sha256:<64 lowercase hex>" and equal the SHA-256 of the canonical bytes of the receipt
// with that one field removed. Signature validity is out of scope: this binds digest to bytes.
#include "reconcile/rules/attest_digest.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_16_attestation_digest(RuleContext& ctx) {
  const Json* attestor = member(ctx.receipt, "attestor");
  const auto digest = attestor ? string_member(*attestor, "signed_subject_digest") : std::nullopt;
  if (!digest || digest->empty()) return;  // gated
  constexpr const char* kPath = "attestor.signed_subject_digest";
  if (!is_sha256_digest(*digest)) {
    ctx.failures.add(plain_failure(16, kPath,
                                   "Rule 16 (attestation digest binding): attestor.signed_subject_digest " +
                                       Tree(std::string(*digest)).dump() + " is not in the expected \"sha256:<64-hex>\" format."));
    return;
  }
  Tree stripped = ctx.read.tree();
  erase_member(stripped, "attestor", "signed_subject_digest");
  const auto bytes = canonical_bytes(stripped);
  if (!bytes.ok) {
    ctx.failures.add(plain_failure(
        16, kPath, "Rule 16 (attestation digest binding): canonical-emit/hash threw on the stripped receipt: " + bytes.error + "."));
    return;
  }
  const std::string recomputed = "sha256:" + common::sha256_hex(bytes.text);
  if (recomputed != *digest) {
    ctx.failures.add(plain_failure(16, kPath,
                                   "Rule 16 (attestation digest binding): declared digest " + std::string(*digest) +
                                       " does not match recomputed digest " + recomputed +
                                       ". The receipt bytes were changed after the digest was bound."));
  }
}

}  // namespace reconcile::rules
