#include "reconcile/rules/rule_14_engine_keys.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <unordered_map>

#include "reconcile/rules/core_js.hpp"

namespace reconcile::rules::rule14 {
namespace {

std::vector<std::string_view> views(std::initializer_list<const std::vector<std::string>*> lists,
                                    const char* first = nullptr) {
  std::vector<std::string_view> out;
  if (first) out.emplace_back(first);
  for (const auto* list : lists) out.insert(out.end(), list->begin(), list->end());
  return out;
}

}  // namespace

std::vector<Key> js_key_order(const std::vector<std::string_view>& keys) {
  std::vector<Key> out;
  out.reserve(keys.size());
  std::unordered_map<std::string_view, std::size_t> place;
  bool any_index = false;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [it, inserted] = place.emplace(keys[i], out.size());
    if (!inserted) {
      out[it->second].at = i;
      continue;
    }
    out.push_back({keys[i], i});
    any_index = any_index || core::array_index(keys[i]).has_value();
  }
  if (any_index) {
    const auto index_of = [](const Key& k) { return core::array_index(k.name); };
    const auto end = std::stable_partition(out.begin(), out.end(), [&](const Key& k) { return index_of(k).has_value(); });
    std::stable_sort(out.begin(), end, [&](const Key& a, const Key& b) { return *index_of(a) < *index_of(b); });
  }
  return out;
}

EngineKeys::EngineKeys(const receipt::engine::GeneralReceipt& engine)
    : EngineKeys(engine.topology().unit_order, engine.topology().parameter_order) {
  if (engine.batched()) {
    std::vector<std::string_view> ids;
    const auto& samples = engine.input->batch->samples;
    for (std::size_t s = 0; s < engine.samples.size(); ++s) ids.emplace_back(samples[s].id);
    sample = js_key_order(ids);
  }
}

EngineKeys::EngineKeys(const receipt::topology::UnitOrder& ord, const std::vector<std::string>& parameter_order) {
  forward = js_key_order(views({&ord.hidden, &ord.output}));
  post_forward = js_key_order(views({&ord.hidden, &ord.output}, "status"));
  input = js_key_order(views({&ord.input}));
  output = js_key_order(views({&ord.output}));
  hidden = js_key_order(views({&ord.hidden}));
  parameter = js_key_order(views({&parameter_order}));
}

const EngineKeys& engine_keys(const receipt::engine::GeneralReceipt& engine, std::optional<EngineKeys>& scratch) {
  if (engine.batched()) return scratch.emplace(engine);
  struct Remembered {
    receipt::topology::UnitOrder order;  // the ids the keys view
    std::vector<std::string> parameter_order;
    std::optional<EngineKeys> keys;
  };
  thread_local Remembered last;
  const auto& t = engine.topology();
  const auto& ord = t.unit_order;
  if (!last.keys || ord.input != last.order.input || ord.hidden != last.order.hidden ||
      ord.output != last.order.output || t.parameter_order != last.parameter_order) {
    last.keys.reset();
    last.order.input = ord.input;
    last.order.hidden = ord.hidden;
    last.order.output = ord.output;
    last.parameter_order = t.parameter_order;
    last.keys.emplace(last.order, last.parameter_order);
  }
  return *last.keys;
}

}  // namespace reconcile::rules::rule14
