// Rule 14's differential read from the engine's GeneralReceipt: phase 1 here (the reference's
// comparisons and completeness checks, in its order), phase 2 in rule_14_engine_extended.cpp. Each
// step follows the JSON form it replaced (tests/reconcile/rule_14_differential_tree.cpp) check for
// check: where that form iterated one of the engine's objects, this one visits the same ids in
// Object.keys order (EngineKeys), so every failure comes out as it did, in the same order.
#include "reconcile/rules/rule_14_engine_compare.hpp"

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rule_14_engine_extended.hpp"
#include "reconcile/rules/rule_14_engine_keys.hpp"
#include "reconcile/rules/rule_14_findings.hpp"

namespace reconcile::rules {
namespace rule14 {  // named, so that these names meet no other file's in a unity batch
namespace {

using receipt::engine::ForwardValues;
using receipt::engine::GeneralReceipt;
using receipt::engine::UpdateRecord;

const Json kNoMembers = Json::object();

// a ?? b for JSON: a when present and not null.
const Json* coalesce(const Json* a, const Json* b) { return a && !a->is_null() ? a : b; }

class EngineDifferential {
 public:
  EngineDifferential(const Json& receipt, const GeneralReceipt& engine, Tolerance tol, FailureSink& out)
      : r_(receipt), e_(engine), t_(engine.topology()), c_(engine.core), n_hidden_(t_.unit_order.hidden.size()),
        keys_(engine_keys(engine, own_keys_)), found_(tol, out) {}

  void run() {
    forward_section();
    loss_section();
    post_update_section();
    per_sample_section();
    backward_section();
    updates_section();
    parameters_after_section();
    compare_extended(r_, e_, keys_, by_param_, found_);
  }

 private:
  const std::vector<double>& loss_per_output() const { return e_.batched() ? e_.reduced_loss_per_output : c_.loss_o; }
  double loss_total() const { return e_.batched() ? e_.reduced_loss_total : c_.loss_total; }
  const std::string& parameter_id(const UpdateRecord& u) const { return t_.parameters[u.slot].id; }

  // Forward-shaped maps ({unit: {net, out}}): the receipt's key set equals the engine's, every
  // unit carries both numbers. post_update_forward (`reserved`) has a "status" key besides its
  // units, skipped on both sides, and may nest its units under "units".
  void unit_map(const std::string& base, const ForwardValues& f, const Json* receipt_units, bool reserved) {
    const std::vector<Key>& keys = reserved ? keys_.post_forward : keys_.forward;
    std::size_t hits = 0;  // engine units the receipt has a member for, the reserved names aside
    for (const Key& k : keys) {
      if (reserved && k.name == "status") continue;
      const std::size_t unit = reserved ? k.at - 1 : k.at;
      const Json* ru = core::lookup(receipt_units, k.name);
      if (ru && !(reserved && k.name == "units")) ++hits;
      const bool present = reserved ? (ru && js_object(*ru)) : core::truthy(ru);
      if (!present) {
        found_.missing(base + "." + std::string(k.name), "the engine recomputed " + base + " unit " + json_quoted(k.name) +
                                                           " but the receipt has NO entry for it (selective omission).");
        continue;
      }
      for (const auto& [field, value] : {std::pair<const char*, double>{"net", unit_net(f, n_hidden_, unit)}, {"out", unit_out(f, n_hidden_, unit)}}) {
        const Json* rv = core::lookup(ru, field);
        if (!rv || !rv->is_number()) {
          found_.missing(base + "." + std::string(k.name) + "." + field,
                         base + " unit " + json_quoted(k.name) + " is missing its " + field +
                             " value; a unit must carry BOTH net and out.",
                         value);
        } else {
          found_.compare({base, ".", k.name, ".", field}, value, rv);
        }
      }
    }
    const std::size_t skipped = reserved ? present_count(receipt_units, {"status", "units"}) : 0;
    if (only_engine_keys(receipt_units, hits, skipped)) return;
    std::unordered_set<std::string_view> engine_keys;
    for (const Key& k : keys) {
      if (!(reserved && k.name == "status")) engine_keys.emplace(k.name);
    }
    for (const auto& key : js_object_keys(receipt_units)) {
      if (reserved && (key == "status" || key == "units")) continue;
      if (engine_keys.count(key) == 0) {
        found_.missing(base + "." + key, "the receipt's " + base + " declares unit " + json_quoted(key) +
                                      " that the engine did NOT recompute (no extra units).");
      }
    }
  }

  // Whether the receipt's object holds no key but the `hits` engine keys found in it (distinct,
  // none of the `skipped` members the check passes over), so that looking for extra keys would
  // find none. A duplicated key or anything but an object answers false: the full check decides.
  static bool only_engine_keys(const Json* receipt_map, std::size_t hits, std::size_t skipped) {
    return receipt_map != nullptr && receipt_map->is_object() && receipt_map->size() == hits + skipped;
  }

  static std::size_t present_count(const Json* receipt_map, std::initializer_list<std::string_view> names) {
    std::size_t n = 0;
    for (std::string_view name : names) n += core::lookup(receipt_map, name) != nullptr ? 1 : 0;
    return n;
  }

  // {output unit: number} maps whose key set must equal the engine's.
  void output_map(const std::string& base, const std::vector<double>& values, const Json* receipt_map) {
    std::size_t hits = 0;
    for (const Key& k : keys_.output) {
      const Json* rv = core::lookup(receipt_map, k.name);
      if (rv) ++hits;
      if (!rv || !rv->is_number()) {
        const std::string path = base + "." + std::string(k.name);
        found_.missing(path, "the engine recomputed " + path + " but the receipt is missing it.", values[k.at]);
      } else {
        found_.compare({base, ".", k.name}, values[k.at], rv);
      }
    }
    if (only_engine_keys(receipt_map, hits, 0)) return;
    std::unordered_set<std::string_view> engine_keys;
    for (const Key& k : keys_.output) engine_keys.emplace(k.name);
    for (const auto& key : js_object_keys(receipt_map)) {
      if (engine_keys.count(key) == 0) {
        found_.missing(base + "." + key, "the receipt's " + base + " declares " + json_quoted(key) +
                                      " that the engine did NOT recompute.");
      }
    }
  }

  void forward_section() { unit_map("forward", c_.fwd, coalesce(member(r_, "forward"), &kNoMembers), false); }

  void loss_section() {
    const Json* rl = member(r_, "loss");
    for (const Key& k : keys_.output) {
      found_.compare({"loss.per_output.", k.name}, loss_per_output()[k.at],
                     core::lookup(core::lookup(rl, "per_output"), k.name));
    }
    found_.compare({"loss.total"}, loss_total(), core::lookup(rl, "total"));
  }

  void post_update_section() {
    const Json* rpf = member(r_, "post_update_forward");
    if (core::truthy(rpf)) unit_map("post_update_forward", e_.post_forward, post_forward_units(rpf), true);
    const Json* rpl = member(r_, "post_update_loss");
    if (core::truthy(rpl)) {
      output_map("post_update_loss.per_output", e_.post_loss_per_output,
                 coalesce(core::lookup(rpl, "per_output"), &kNoMembers));
      found_.compare({"post_update_loss.total"}, e_.post_loss_total, core::lookup(rpl, "total"));
    }
  }

  void per_sample_section() {
    const Json* rps = member(r_, "per_sample");
    if (!e_.batched() || !core::truthy(rps)) return;
    for (const Key& k : keys_.sample) {
      const std::string sid(k.name);
      const Json* rs = core::lookup(rps, sid);
      if (!core::truthy(rs)) continue;  // a missing sample is Rule 19's finding
      const receipt::engine::SampleRecord& rec = e_.samples[k.at];
      const std::string base = "per_sample." + sid;
      unit_map(base + ".forward", rec.forward, coalesce(core::lookup(rs, "forward"), &kNoMembers), false);
      output_map(base + ".loss.per_output", rec.loss_per_output,
                 coalesce(core::lookup(core::lookup(rs, "loss"), "per_output"), &kNoMembers));
      const Json* total = core::lookup(core::lookup(rs, "loss"), "total");
      if (!total || !total->is_number()) {
        found_.missing(base + ".loss.total", "receipt per-sample " + json_quoted(sid) + " is missing its loss.total.",
                       rec.loss_total);
      } else {
        found_.compare({base, ".loss.total"}, rec.loss_total, total);
      }
    }
  }

  void backward_section() {
    const Json* rb = member(r_, "backward");
    for (const Key& k : keys_.output) {
      const Json* rs = core::lookup(core::lookup(rb, "output_error_signals"), k.name);
      if (!core::truthy(rs)) continue;
      found_.compare({"backward.output_error_signals.", k.name, ".signal_value"}, c_.sig_o[k.at],
                     core::lookup(rs, "signal_value"));
    }
    for (const Key& k : keys_.hidden) {
      const Json* rs = core::lookup(core::lookup(rb, "hidden_error_signals"), k.name);
      if (!core::truthy(rs)) continue;
      constexpr std::string_view kBase = "backward.hidden_error_signals.";
      found_.compare({kBase, k.name, ".backpropagated_sum"}, c_.bsum_h[k.at], core::lookup(rs, "backpropagated_sum"));
      found_.compare({kBase, k.name, ".activation_derivative"}, c_.ad_h[k.at], core::lookup(rs, "activation_derivative"));
      found_.compare({kBase, k.name, ".signal_value"}, c_.sig_h[k.at], core::lookup(rs, "signal_value"));
    }
  }

  void updates_section() {
    if (const Json* updates = array_member(r_, "updates")) {
      for (const auto& u : *updates) {
        if (u.is_null()) throw std::runtime_error("Cannot read properties of null (reading 'parameter_id')");
        if (const auto pid = string_member(u, "parameter_id")) by_param_.insert_or_assign(std::string(*pid), &u);
      }
    }
    const char* name = e_.optimizer_name();
    for (const UpdateRecord& eu : e_.updates) {
      const std::string& pid = parameter_id(eu);
      const auto found = by_param_.find(pid);
      if (found == by_param_.end()) {
        found_.missing("updates[" + pid + "]", "the engine produced an update for parameter " + json_quoted(pid) +
                                                   " but the receipt's updates[] has NO entry for it (selective omission).",
                       std::nullopt, pid);
        continue;
      }
      const Json& ru = *found->second;
      found_.compare({"updates[", pid, "].gradient"}, eu.gradient, member(ru, "gradient"));
      found_.compare({"updates[", pid, "].update"}, eu.update, member(ru, "update"));
      found_.compare({"updates[", pid, "].weight_after"}, eu.weight_after, member(ru, "weight_after"));
      if (!e_.stateful || !state_after_compared(ru, name)) continue;  // stateless: no state_after
      const Json* ra = core::lookup(member(ru, "optimizer"), "state_after");
      const std::string_view n(name);
      if (n == "adam" || n == "adamw") {
        found_.compare({"updates[", pid, "].optimizer.state_after.m"}, eu.state_after.m, core::lookup(ra, "m"));
        found_.compare({"updates[", pid, "].optimizer.state_after.v"}, eu.state_after.v, core::lookup(ra, "v"));
      } else if (n == "sgd_momentum") {
        found_.compare({"updates[", pid, "].optimizer.state_after.buffer"}, eu.state_after.buffer,
                       core::lookup(ra, "buffer"));
      }
    }
  }

  void parameters_after_section() {
    const Json* rpa = member(r_, "parameters_after");
    std::size_t hits = 0;  // the engine's parameters that parameters_after has a member for
    for (const Key& k : keys_.parameter) {
      const Json* claimed = core::lookup(rpa, k.name);
      if (claimed != nullptr) ++hits;
      found_.compare({"parameters_after.", k.name}, e_.parameters_after[k.at], claimed);
    }
    const Json* order = core::lookup(member(r_, "topology"), "parameter_order");
    if (declared_are_observed(order, rpa, hits)) return;
    const auto observed = js_object_keys(coalesce(rpa, &kNoMembers));
    const std::unordered_set<std::string> observed_set(observed.begin(), observed.end());
    std::unordered_set<std::string> declared;
    if (order && order->is_array()) {
      for (const auto& id : *order) {
        const std::string pid = js_string(&id);
        declared.insert(pid);
        if (observed_set.count(pid) == 0) {
          found_.missing("parameters_after." + pid, "parameter " + json_quoted(pid) +
                                                 " is declared in topology.parameter_order but ABSENT from "
                                                 "parameters_after.",
                  std::nullopt, pid);
        }
      }
    }
    for (const auto& pid : observed) {
      if (declared.count(pid) == 0) {
        found_.missing("parameters_after." + pid, "parameters_after contains parameter " + json_quoted(pid) +
                                               " NOT declared in topology.parameter_order.",
                std::nullopt, pid);
      }
    }
  }

  // Whether parameter_order is the engine's parameter order (it was read from it: the same
  // strings, in order), of distinct ids, and parameters_after an object of exactly those keys
  // (`hits` of them found above, no other member), so that the completeness check below would
  // find nothing. Anything else (a duplicated key or id included) answers false: the full check
  // decides. Linear: parameter maps reach 10^4 entries.
  bool declared_are_observed(const Json* order, const Json* rpa, std::size_t hits) const {
    const auto& ids = t_.parameter_order;
    if (!order || !order->is_array() || !rpa || !rpa->is_object() || order->size() != ids.size() ||
        keys_.parameter.size() != ids.size() || hits != ids.size() || rpa->size() != hits) {
      return false;
    }
    std::size_t i = 0;
    for (const auto& id : *order) {
      if (!id.is_string() || id.string() != ids[i++]) return false;
    }
    return true;
  }

  const Json& r_;
  const GeneralReceipt& e_;
  const receipt::topology::Topology& t_;
  const receipt::engine::StepCore& c_;
  std::size_t n_hidden_;
  std::optional<EngineKeys> own_keys_;  // a batched receipt's (engine_keys)
  const EngineKeys& keys_;
  Findings found_;
  UpdatesById by_param_;
};

}  // namespace
}  // namespace rule14

void compare_with_engine(const Json& receipt, const receipt::engine::GeneralReceipt& engine, Tolerance tolerance,
                         FailureSink& out) {
  rule14::EngineDifferential(receipt, engine, tolerance, out).run();
}

}  // namespace reconcile::rules
