// Rule 13 (softmax+CE dual form), only where an output error signal carries dual_form:
//   13a each jacobian_terms[j].term_value equals the left-to-right product of its factors;
//   13b summed_value equals the term values summed in dual_form.summation_order (each key picks
//       the first term whose target_unit is that key);
//   13c summed_value equals the collapsed signal_value.
// The sub-checks are independent (no cascades); malformed dual_form structure is Rule 0.
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

using namespace core;

void check_rule_13_dual_form(RuleContext& ctx) {
  const Ref signals = opt(lookup(&ctx.receipt, "backward"), "output_error_signals");
  if (!truthy(signals) || !is_object(signals)) return;
  const KeyList units(signals);
  for (std::size_t i = 0; i < units.size(); ++i) {
    const Ref unit = units.value(i);
    if (!truthy(unit) || !is_object(unit)) continue;
    const Ref dual = lookup(unit, "dual_form");
    if (!truthy(dual)) continue;
    const std::string_view id = units.key(i);
    const auto base = [&] { return "backward.output_error_signals." + std::string(id) + ".dual_form"; };
    const Ref order = lookup(dual, "product_order");
    if (!equals(order, kLeftToRight)) {
      ctx.failures.add(structural(std::string(id), base() + ".product_order",
                                  "Unsupported product_order " + (order ? js_stringify_value(*order) : "undefined") +
                                      " at " + base() + ".product_order. The reconciler accepts only 'left_to_right'."));
      continue;
    }
    const Ref terms = lookup(dual, "jacobian_terms");
    if (!is_array(terms) || terms->empty()) {
      ctx.failures.add(structural(std::string(id), base() + ".jacobian_terms",
                                  base() + ".jacobian_terms is empty or not an array. The schema requires minItems: 1."));
      continue;
    }
    // 13a
    for (std::size_t j = 0; j < terms->size(); ++j) {
      const Ref term = &(*terms)[j];
      const Ref factors = get(term, "factors");
      const auto term_path = [&] { return base() + ".jacobian_terms[" + std::to_string(j) + "]"; };
      if (!is_array(factors) || factors->empty()) {
        ctx.failures.add(structural(std::string(id), term_path() + ".factors",
                                    term_path() + ".factors has " +
                                        (is_array(factors) ? std::string("0 entries") : "non-array type " + js_typeof(factors)) +
                                        ". The schema requires minItems: 1 per Jacobian term."));
        continue;
      }
      const Val product = multiply_left_to_right(*factors);
      const Val stored = Val::of(lookup(term, "term_value"));
      const auto c = check(product, stored, ctx.tolerance);
      if (c.ok) continue;
      Failure f = numeric(13, std::string(id), term_path() + ".term_value", stored, product, c);
      f.factors = factor_list(factors);
      f.product_order = kLeftToRight;
      if (c.finite) {
        f.message = "Rule 13a (dual-form term multiplication): jacobian_terms[" + std::to_string(j) +
                    "].term_value disagrees with the product of its factors (left_to_right). target_unit='" +
                    to_string(lookup(term, "target_unit")) + "'.";
      }
      ctx.failures.add(std::move(f));
    }
    // 13b
    const Ref summation_order = lookup(dual, "summation_order");
    if (!is_array(summation_order)) {
      ctx.failures.add(structural(std::string(id), base() + ".summation_order",
                                  base() + ".summation_order is not an array."));
      continue;
    }
    double magnitudes = 0;
    const Val sum = sum_in_order(*terms, *summation_order, "target_unit", "term_value", &magnitudes);
    const Ref summed_ref = lookup(dual, "summed_value");
    const Val summed = Val::of(summed_ref);
    const auto c = check_sum(sum, summed, ctx.tolerance, ctx.term_scaled_sums, magnitudes);
    if (!c.ok) {
      Failure f = numeric(13, std::string(id), base() + ".summed_value", summed, sum, c);
      if (c.finite) {
        std::string keys;
        for (const auto& k : *summation_order) {
          if (!keys.empty()) keys += ", ";
          if (!k.is_null()) keys += to_string(&k);
        }
        f.message = "Rule 13b (dual-form summation): summed_value disagrees with sum of jacobian_terms in "
                    "summation_order [" + keys + "].";
      }
      ctx.failures.add(std::move(f));
    }
    // 13c
    const Ref collapsed = lookup(unit, "signal_value");
    if (!is_number(collapsed) || !is_finite_number(summed_ref)) continue;
    const auto cross = check_tolerance(number(summed_ref), number(collapsed), ctx.tolerance);
    if (cross.ok) continue;
    Failure f = numeric(13, std::string(id), base() + ".summed_value", Val::of_number(number(summed_ref)),
                        Val::of_number(number(collapsed)), cross);
    if (cross.finite) {
      f.message = "Rule 13c (collapsed-vs-dual): dual_form.summed_value (" + js_number(number(summed_ref)) +
                  ") disagrees with OutputErrorSignal.signal_value (" + js_number(number(collapsed)) +
                  "). The collapsed factors and the dual-form Jacobian decomposition must agree at the sum level "
                  "for softmax+CE: one of them is wrong.";
    }
    ctx.failures.add(std::move(f));
  }
}

}  // namespace reconcile::rules
