// Rule 19: sample-set coherence. batch.sample_order has no duplicate id, and every per-sample map
// (loss.per_sample, per_sample) has exactly the ids of batch.sample_order as its keys.
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

void check_key_set(const std::vector<const Json*>& declared, const Json& map, const std::string& map_path,
                   FailureSink& failures) {
  const std::vector<std::string> observed = js_object_keys(&map);
  const std::unordered_set<std::string> observed_set(observed.begin(), observed.end());
  std::unordered_set<std::string> declared_strings;
  for (const Json* sid : declared) {
    if (sid->is_string()) declared_strings.insert(sid->get<std::string>());
    if (!sid->is_string() || observed_set.count(sid->get<std::string>()) == 0) {
      failures.add(plain_failure(19, map_path + "." + js_string(sid),
                                 "Rule 19 (sample-set coherence): " + map_path + " is missing sample_id " +
                                     sid->dump() + " declared in batch.sample_order."));
    }
  }
  for (const auto& key : observed) {
    if (declared_strings.count(key) == 0) {
      failures.add(plain_failure(19, map_path + "." + key,
                                 "Rule 19 (sample-set coherence): " + map_path + " contains sample_id " +
                                     Tree(std::string(key)).dump() + " not declared in batch.sample_order."));
    }
  }
}

}  // namespace

void check_rule_19_sample_set(RuleContext& ctx) {
  const Json* batch = member(ctx.receipt, "batch");
  if (!core::truthy(batch)) return;
  const Json* order = member(*batch, "sample_order");
  if (!order || order->is_null()) throw std::runtime_error("Cannot read properties of undefined (reading 'length')");
  Tree chars = Tree::array();  // a string sample_order iterates its characters
  std::optional<ReadReceipt> chars_read;
  std::vector<const Json*> ids;
  if (order->is_array()) {
    for (const auto& sid : *order) ids.push_back(&sid);
  } else if (order->is_string()) {
    for (char c : order->string()) chars.push_back(std::string(1, c));
    chars_read.emplace(chars);
    for (const auto& c : chars_read->root()) ids.push_back(&c);
  } else if (order->is_object()) {
    throw std::runtime_error("batch.sample_order is not iterable");
  }
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!seen.insert(ids[i]->dump()).second) {
      ctx.failures.add(plain_failure(19, "batch.sample_order[" + std::to_string(i) + "]",
                                     "Rule 19 (sample-set coherence): batch.sample_order contains duplicate sample_id " +
                                         ids[i]->dump() + " at index " + std::to_string(i) + "."));
      return;
    }
  }
  if (!order->is_array() && !order->is_string()) throw std::runtime_error("batch.sample_order is not iterable");
  const Json* loss = member(ctx.receipt, "loss");
  if (!loss || loss->is_null()) throw std::runtime_error("Cannot read properties of undefined (reading 'per_sample')");
  if (const Json* m = member(*loss, "per_sample"); core::truthy(m)) check_key_set(ids, *m, "loss.per_sample", ctx.failures);
  if (const Json* m = member(ctx.receipt, "per_sample"); core::truthy(m)) check_key_set(ids, *m, "per_sample", ctx.failures);
}

}  // namespace reconcile::rules
