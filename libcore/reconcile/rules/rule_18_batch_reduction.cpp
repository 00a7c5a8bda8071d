// Rule 18: batch reduction consistency. For a batched receipt whose batch.reduction is "mean" or
// "sum" and which exposes loss.per_sample, loss.total must equal that reduction over the per-sample
// losses taken in batch.sample_order (sum from 0, left to right; mean divides by the count).
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_18_batch_reduction(RuleContext& ctx) {
  const Json* batch = member(ctx.receipt, "batch");
  if (!core::truthy(batch)) return;
  const auto reduction = string_member(*batch, "reduction");
  if (!reduction || (*reduction != "mean" && *reduction != "sum")) return;
  const Json* loss = member(ctx.receipt, "loss");
  if (!loss || loss->is_null()) throw std::runtime_error("Cannot read properties of undefined (reading 'per_sample')");
  const Json* per_sample = member(*loss, "per_sample");
  if (!core::truthy(per_sample)) return;
  const Json* order = member(*batch, "sample_order");
  if (!order || !(order->is_array() || order->is_string())) throw std::runtime_error("batch.sample_order is not iterable");
  std::vector<std::string> ids;  // a string sample_order iterates its characters
  if (order->is_string()) {
    for (char c : order->string()) ids.emplace_back(1, c);
  } else {
    for (const auto& sid : *order) ids.push_back(js_string(&sid));
  }

  double sum = 0;
  std::size_t count = 0;
  for (const auto& sid : ids) {
    const Json* v = per_sample->is_object() ? member(*per_sample, sid) : nullptr;
    const auto value = as_number(v);
    if (!value) return;  // a sample missing from loss.per_sample is Rule 19's finding
    sum += *value;
    ++count;
  }
  const double expected = *reduction == "mean" ? sum / static_cast<double>(count) : sum;
  const Json* total = member(*loss, "total");
  const auto declared = as_number(total);
  const auto check = check_tolerance(declared.value_or(std::numeric_limits<double>::quiet_NaN()), expected, ctx.tolerance);
  if (check.ok) return;
  Failure f = numeric_failure(18, "loss.total", declared.value_or(0), expected, check,
                              "Rule 18 (batch reduction consistency): loss.total " + js_string(total) +
                                  " does not match " + std::string(*reduction) + "(loss.per_sample.values()) = " + js_number(expected) +
                                  " (" + std::to_string(count) + " samples, reduction=" + std::string(*reduction) +
                                  "). Catches the mean-vs-sum confusion (off by a factor of N).");
  if (!declared) f.stored.reset();
  ctx.failures.add(std::move(f));
}

}  // namespace reconcile::rules
