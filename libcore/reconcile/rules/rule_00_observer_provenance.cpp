// Rule 0 (observer-provenance consistency): a receipt that carries an import marker
// (attestor.import_provenance with a source_format/source_hash, or source_framework with a name or
// extractor.name) but whose present authoring_state is not 'external_imported' contradicts itself;
// the relabel would dodge Rule 14, the only math gate on imported receipts. An absent label is
// left to the math rules and the marker-gated Rule 14.
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_00_observer_provenance(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  const Ref state = authoring_state(r);
  if (!state || state->is_null() || equals(state, "external_imported")) return;

  const Ref provenance = opt(lookup(&r, "attestor"), "import_provenance");
  const bool has_provenance = is_object(provenance) &&
                              (is_string(lookup(provenance, "source_format")) || is_string(lookup(provenance, "source_hash")));
  const Ref framework = lookup(&r, "source_framework");
  const Ref extractor = is_object(framework) ? lookup(framework, "extractor") : nullptr;
  const bool has_framework =
      is_object(framework) && (is_string(lookup(framework, "name")) || (is_object(extractor) && is_string(lookup(extractor, "name"))));
  if (!has_provenance && !has_framework) return;

  std::string markers = has_provenance ? "attestor.import_provenance" : "";
  if (has_framework) markers += has_provenance ? " + source_framework" : "source_framework";
  ctx.failures.add(structural(
      std::nullopt, "fixture_status.authoring_state",
      "Observer-provenance contradiction: the receipt records framework import-provenance (" + markers +
          ") but fixture_status.authoring_state='" + to_string(state) +
          "' is not 'external_imported'. An imported receipt cannot deny being externally imported: doing so "
          "would dodge Rule 14 (the engine-recompute math gate), laundering foreign bad math into a clean PASS. Set "
          "authoring_state to 'external_imported' or remove the import-provenance markers if the receipt is "
          "genuinely engine-authored."));
}

}  // namespace reconcile::rules
