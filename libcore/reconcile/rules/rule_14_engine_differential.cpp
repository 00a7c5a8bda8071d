// Rule 14: the engine-recompute differential, the math gate of observer (imported) receipts. It
// runs when the receipt carries an import marker (attestor.import_provenance, source_framework) or
// says authoring_state "external_imported": the step is re-run by our engine from the receipt's
// inputs (parameters_before, inputs, targets, topology, learning rate, policies, optimizer config
// and state_before, or the batch), and every claimed number the engine recomputes is compared
// within attestor.differential_tolerance clamped to kDifferentialCeiling (default {1e-6, 1e-4}).
// A receipt that declares verification_state "engine_recompute_skipped_with_basis" skips it
// (reported as math_gate_skipped; Rule 15 judges the basis).
//
// The comparisons (rule_14_engine_compare.cpp, against the engine's struct): phase 1 repeats the
// reference's comparisons in its order (forward with key-set completeness, loss, post-update
// forward/loss, per-sample forward/loss, backward signals, updates with their completeness,
// optimizer state_after, parameters_after with its key set). Phase 2 (deliberate difference)
// compares every other number the engine recomputed that the receipt also claims at the same
// place (factor values, downstream contributions, weight_before, per-update learning rate,
// loss.per_sample, ...): the reference lets large changes to those through.
#include <string>
#include <unordered_set>

#include "common/result.hpp"
#include "reconcile/receipt_traits.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rule_14_engine_compare.hpp"
#include "reconcile/rules/rule_14_engine_input.hpp"
#include "reconcile/rules/rule_14_engine_labels.hpp"
#include "reconcile/rules/rule_14_findings.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

using rule14::kCompleteTag;
using rule14::kTag;

// Deliberate difference (Options::derive_every_record): the engine takes parameters_before for
// the ids of topology.parameter_order and ignores any other key, so a record whose map lacks an id
// or carries an extra one would be recomputed from something other than what it states.
void check_parameters_before_keys(const Json& r, FailureSink& out) {
  const Json* order = core::lookup(member(r, "topology"), "parameter_order");
  const Json* before = member(r, "parameters_before");
  if (!order || !order->is_array() || !before || !before->is_object()) return;
  std::unordered_set<std::string> declared;
  for (const auto& id : *order) {
    const std::string pid = js_string(&id);
    declared.insert(pid);
    if (!before->contains(pid)) {
      out.add(plain_failure(14, "parameters_before." + pid,
                            std::string(kCompleteTag) + "parameter " + Tree(pid).dump() +
                                " is declared in topology.parameter_order but ABSENT from parameters_before.",
                            pid));
    }
  }
  for (const auto& [key, value] : before->items()) {
    const std::string pid(key);
    if (declared.count(pid) == 0) {
      out.add(plain_failure(14, "parameters_before." + pid,
                            std::string(kCompleteTag) + "parameters_before contains parameter " + Tree(pid).dump() +
                                " NOT declared in topology.parameter_order.",
                            pid));
    }
  }
}

}  // namespace

Rule14Outcome check_rule_14_engine_differential(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  const bool imported = labelled_external_imported(r) || has_observer_markers(r);
  if (!imported && !ctx.derive_every_record) return {};
  const Json* status = member(r, "fixture_status");
  const auto verification = status ? string_member(*status, "verification_state") : std::nullopt;
  if (verification && *verification == "engine_recompute_skipped_with_basis") return {true};
  if (ctx.derive_every_record) check_parameters_before_keys(r, ctx.failures);

  Tolerance declared{1e-6, 1e-4};
  const Json* attestor = member(r, "attestor");
  const Json* dt = core::lookup(attestor, "differential_tolerance");
  if (core::truthy(dt)) {
    const auto atol = as_number(core::lookup(dt, "atol"));
    const auto rtol = as_number(core::lookup(dt, "rtol"));
    if (atol && rtol) declared = {*atol, *rtol};
  }
  // An engine record is judged by its own numeric_policy tolerance clamped to a ceiling the
  // verifier owns: its numbers came from this engine, only their printing (9 significant digits)
  // rounds them, so a receipt that widens its stated tolerance gains nothing.
  const Tolerance tol = imported ? clamp_tolerance(declared, kDifferentialCeiling).effective
                                 : clamp_tolerance(ctx.tolerance, kEngineDerivationCeiling).effective;

  // Inputs the engine needs; without them the receipt is malformed (the schema's finding), not a
  // differential failure.
  const Json* topology = member(r, "topology");
  if (!core::truthy(topology) || !core::truthy(core::lookup(topology, "unit_order")) || !core::truthy(core::lookup(topology, "parameter_order")) ||
      !core::truthy(core::lookup(topology, "parameters"))) {
    return {};
  }
  if (!as_number(member(r, "learning_rate")) || !core::truthy(member(r, "inputs")) || !core::truthy(member(r, "targets")) ||
      !core::truthy(member(r, "parameters_before"))) {
    return {};
  }
  if (!core::truthy(core::lookup(member(r, "bias_policy"), "mode"))) return {};
  if (!core::truthy(core::lookup(member(r, "numeric_policy"), "tolerance"))) return {};

  const bool batched = core::truthy(member(r, "batch")) && core::truthy(member(r, "per_sample"));
  auto engine = recompute_engine_receipt(ctx.read, batched);
  if (!engine) {
    ctx.failures.add(plain_failure(14, "engine_recompute",
                                   std::string(kTag) + "engine failed while recomputing the receipt for observer-mode "
                                                       "validation: " +
                                       engine.error().message() +
                                       ". Check topology cross-references and finite-input invariants."));
    return {};
  }
  compare_with_engine(r, *engine, tol, ctx.failures);
  // Engine-mode receipts have their labels checked byte for byte (engine-reproduce).
  if (imported && ctx.engine_labels) compare_engine_labels(r, *engine, ctx.failures);
  return {};
}

}  // namespace reconcile::rules
