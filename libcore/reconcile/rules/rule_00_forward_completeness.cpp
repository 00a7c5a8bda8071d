// Rule 0.9 (forward-map completeness): when topology.unit_order.output is declared, forward's key
// set must equal unit_order.hidden ∪ output and every unit must carry a numeric net and out, so
// that Rules 0.8, 11 and 12 (which skip a unit they do not find) cannot be dodged by dropping a
// unit. Observer receipts (label or marker) are left to Rule 14, which owns their completeness.
#include <string>
#include <vector>

#include "reconcile/receipt_traits.hpp"
#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_00_forward_completeness(RuleContext& ctx) {
  const Json& r = ctx.receipt;
  if (equals(authoring_state(r), "external_imported") || has_observer_markers(r)) return;
  const Ref unit_order = opt(lookup(&r, "topology"), "unit_order");
  if (!truthy(unit_order)) return;
  const Ref outputs = lookup(unit_order, "output");
  if (!is_array(outputs) || outputs->empty()) return;
  const Ref hidden = lookup(unit_order, "hidden");

  std::vector<Ref> declared;
  if (is_array(hidden)) {
    for (const auto& u : *hidden) declared.push_back(&u);
  }
  for (const auto& u : *outputs) declared.push_back(&u);
  FlatStringMap<bool> declared_strings;  // only strings can equal a forward key
  declared_strings.reserve(declared.size());
  for (const Ref u : declared) {
    if (is_string(u)) declared_strings.set(u->string(), true);
  }

  Ref forward_map = lookup(&r, "forward");
  if (forward_map && forward_map->is_null()) forward_map = nullptr;  // forward ?? {}
  const Lookup forward(forward_map);
  for (const Ref unit : declared) {
    const Ref f = forward.find_value(unit);
    if (!truthy(f) || !is_object(f)) {
      const std::string key = key_of(unit);
      ctx.failures.add(structural(
          parameter_id(unit), "forward." + key,
          "Rule 0.9 (forward completeness): topology.unit_order declares forward unit \"" + key +
              "\" but the forward map has NO entry for it. A dropped forward unit is a selective-omission "
              "laundering attempt: Rules 0.8/11/12 iterate only the forward keys present and silently skip a "
              "missing one. forward's key set must EQUAL unit_order.hidden ∪ unit_order.output."));
      continue;
    }
    if (!is_number(lookup(f, "net"))) {
      const std::string key = key_of(unit);
      ctx.failures.add(structural(parameter_id(unit), "forward." + key + ".net",
                                  "Rule 0.9 (forward completeness): forward unit \"" + key +
                                      "\" is missing its numeric net value. A forward unit must carry BOTH net and "
                                      "out so neither escapes reconciliation by omission."));
    }
    if (!is_number(lookup(f, "out"))) {
      const std::string key = key_of(unit);
      ctx.failures.add(structural(parameter_id(unit), "forward." + key + ".out",
                                  "Rule 0.9 (forward completeness): forward unit \"" + key +
                                      "\" is missing its numeric out value. Rules 0.8, 11 and 12 all consume "
                                      "forward." + key + ".out and silently skip a non-numeric one."));
    }
  }
  const KeyList keys(forward_map);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string_view key = keys.key(i);
    if (declared_strings.contains(key)) continue;
    ctx.failures.add(structural(std::string(key), "forward." + std::string(key),
                                "Rule 0.9 (forward completeness): the forward map declares unit \"" + std::string(key) +
                                    "\" that is not in topology.unit_order.hidden ∪ output. forward's key set must "
                                    "EQUAL the declared hidden+output unit set (no extra/undeclared forward units)."));
  }
}

}  // namespace reconcile::rules
