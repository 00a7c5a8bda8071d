// The JSON-tree form of Rule 14's differential, moved here unchanged from
// libcore/reconcile/rules/rule_14_engine_differential.cpp when the rule switched to the engine's
// struct: the test oracle of that form (rule_14_engine_compare_test.cpp).
#include "rule_14_differential_tree.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"

namespace rule14_tree {
namespace {

using namespace reconcile;
using namespace reconcile::rules;

constexpr const char* kTag = "Rule 14 (engine-recompute differential): ";
constexpr const char* kCompleteTag = "Rule 14 (engine-recompute COMPLETENESS): ";

// a ?? b for JSON: a when present and not null.
const Json* coalesce(const Json* a, const Json* b) { return a && !a->is_null() ? a : b; }

const Json kEmptyObject = Json::object();

class Differential {
 public:
  Differential(const Json& receipt, const Json& engine, Tolerance tol, FailureSink& out)
      : r_(receipt), e_(engine), tol_(tol), out_(out) {}

  void run() {
    forward_section();
    loss_section();
    post_update_section();
    per_sample_section();
    backward_section();
    updates_section();
    parameters_after_section();
    extended_section();
  }

 private:
  // One claimed number against the engine's (the reference names no parameter on these).
  void compare(const std::string& path, const Json* engine_value, const Json* receipt_value, bool extended = false) {
    if (!receipt_value || !receipt_value->is_number()) return;  // shape is the schema's domain
    compared_.insert(path);
    const double stored = receipt_value->get<double>();
    const double recomputed = strict_number(engine_value);
    const auto c = check_tolerance(recomputed, stored, tol_);
    if (c.ok) return;
    std::string message =
        c.finite ? std::string(kTag) + (extended ? "(extended) " : "") + "foreign claim at " + path + " (" +
                       js_number(stored) + ") disagrees with engine recomputation (" + js_number(recomputed) +
                       ") beyond differential_tolerance (atol=" + js_number(tol_.atol) + ", rtol=" + js_number(tol_.rtol) +
                       ")."
                 : std::string(kTag) + "non-finite arithmetic at " + path + ". Engine recomputed " +
                       js_number(recomputed) + "; receipt claimed " + js_number(stored) + ".";
    out_.add(numeric_failure(14, path, stored, recomputed, c, std::move(message)));
  }

  void missing(const std::string& path, std::string message, const Json* recomputed = nullptr,
               std::optional<std::string> parameter_id = std::nullopt) {
    Failure f = plain_failure(14, path, std::string(kCompleteTag) + std::move(message), std::move(parameter_id));
    if (recomputed) f.recomputed = strict_number(recomputed);
    out_.add(std::move(f));
  }

  // Forward-shaped maps ({unit: {net, out}}): the receipt's key set equals the engine's, every
  // unit carries both numbers. `receipt_units` may be absent (then every unit is missing).
  void unit_map(const std::string& base, const Json& engine_units, const Json* receipt_units, bool skip_reserved) {
    std::unordered_set<std::string> engine_keys;
    for (const auto& [unit, eu] : js_members(&engine_units)) {
      if (skip_reserved && unit == "status") continue;
      engine_keys.emplace(unit);
      const std::string path = base + "." + std::string(unit);
      const Json* ru = core::lookup(receipt_units, unit);
      const bool present = skip_reserved ? (ru && js_object(*ru)) : core::truthy(ru);
      if (!present) {
        missing(path, "the engine recomputed " + base + " unit " + Tree(std::string(std::string(unit))).dump() +
                          " but the receipt has NO entry for it (selective omission).");
        continue;
      }
      for (const char* field : {"net", "out"}) {
        const Json* rv = core::lookup(ru, field);
        if (!rv || !rv->is_number()) {
          missing(path + "." + field, base + " unit " + Tree(std::string(std::string(unit))).dump() + " is missing its " + field +
                                          " value; a unit must carry BOTH net and out.",
                  core::lookup(eu, field));
        } else {
          compare(path + "." + field, core::lookup(eu, field), rv);
        }
      }
    }
    for (const auto& key : js_object_keys(receipt_units)) {
      if (skip_reserved && (key == "status" || key == "units")) continue;
      if (engine_keys.count(key) == 0) {
        missing(base + "." + key, "the receipt's " + base + " declares unit " + Tree(std::string(key)).dump() +
                                      " that the engine did NOT recompute (no extra units).");
      }
    }
  }

  // {id: number} maps whose key set must equal the engine's (post_update_loss.per_output, per-sample loss).
  void number_map(const std::string& base, const Json& engine_map, const Json* receipt_map) {
    std::unordered_set<std::string> engine_keys;
    for (const auto& [id, ev] : js_members(&engine_map)) {
      engine_keys.emplace(id);
      const std::string path = base + "." + std::string(id);
      const Json* rv = core::lookup(receipt_map, id);
      if (!rv || !rv->is_number()) {
        missing(path, "the engine recomputed " + path + " but the receipt is missing it.", ev);
      } else {
        compare(path, ev, rv);
      }
    }
    for (const auto& key : js_object_keys(receipt_map)) {
      if (engine_keys.count(key) == 0) {
        missing(base + "." + key, "the receipt's " + base + " declares " + Tree(std::string(key)).dump() +
                                      " that the engine did NOT recompute.");
      }
    }
  }

  void forward_section() {
    const Json* ef = member(e_, "forward");
    if (ef) unit_map("forward", *ef, coalesce(member(r_, "forward"), &kEmptyObject), false);
  }

  void loss_section() {
    const Json* el = member(e_, "loss");
    const Json* rl = member(r_, "loss");
    for (const auto& [id, ev] : js_members(core::lookup(el, "per_output"))) {
      compare("loss.per_output." + std::string(id), ev, core::lookup(core::lookup(rl, "per_output"), id));
    }
    compare("loss.total", core::lookup(el, "total"), core::lookup(rl, "total"));
  }

  void post_update_section() {
    const Json* epf = member(e_, "post_update_forward");
    const Json* rpf = member(r_, "post_update_forward");
    if (epf && core::truthy(rpf)) {
      const Json* nested = core::lookup(rpf, "units");
      const Json* units = nested && js_object(*nested) ? nested : rpf;
      unit_map("post_update_forward", *epf, units, true);
    }
    const Json* epl = member(e_, "post_update_loss");
    const Json* rpl = member(r_, "post_update_loss");
    if (epl && core::truthy(rpl)) {
      number_map("post_update_loss.per_output", *member(*epl, "per_output"),
                 coalesce(core::lookup(rpl, "per_output"), &kEmptyObject));
      compare("post_update_loss.total", member(*epl, "total"), core::lookup(rpl, "total"));
    }
  }

  void per_sample_section() {
    const Json* eps = member(e_, "per_sample");
    const Json* rps = member(r_, "per_sample");
    if (!eps || !core::truthy(rps)) return;
    for (const auto& [sid, es] : js_members(eps)) {
      const Json* rs = core::lookup(rps, sid);
      if (!core::truthy(rs)) continue;  // a missing sample is Rule 19's finding
      const std::string base = "per_sample." + std::string(sid);
      unit_map(base + ".forward", *member(*es, "forward"), coalesce(core::lookup(rs, "forward"), &kEmptyObject), false);
      const Json* el = member(*es, "loss");
      number_map(base + ".loss.per_output", *member(*el, "per_output"),
                 coalesce(core::lookup(core::lookup(rs, "loss"), "per_output"), &kEmptyObject));
      const Json* total = core::lookup(core::lookup(rs, "loss"), "total");
      if (!total || !total->is_number()) {
        missing(base + ".loss.total", "receipt per-sample " + Tree(std::string(std::string(sid))).dump() +
                                          " is missing its loss.total.",
                member(*el, "total"));
      } else {
        compare(base + ".loss.total", member(*el, "total"), total);
      }
    }
  }

  void backward_section() {
    const Json* eb = member(e_, "backward");
    const Json* rb = member(r_, "backward");
    for (const auto& [unit, es] : js_members(core::lookup(eb, "output_error_signals"))) {
      const Json* rs = core::lookup(core::lookup(rb, "output_error_signals"), unit);
      if (!core::truthy(rs)) continue;
      compare("backward.output_error_signals." + std::string(unit) + ".signal_value", core::lookup(es, "signal_value"),
              core::lookup(rs, "signal_value"));
    }
    for (const auto& [unit, es] : js_members(core::lookup(eb, "hidden_error_signals"))) {
      const Json* rs = core::lookup(core::lookup(rb, "hidden_error_signals"), unit);
      if (!core::truthy(rs)) continue;
      const std::string base = "backward.hidden_error_signals." + std::string(unit) + ".";
      for (const char* field : {"backpropagated_sum", "activation_derivative", "signal_value"}) {
        compare(base + field, core::lookup(es, field), core::lookup(rs, field));
      }
    }
  }

  void updates_section() {
    if (const Json* updates = array_member(r_, "updates")) {
      for (const auto& u : *updates) {
        if (u.is_null()) throw std::runtime_error("Cannot read properties of null (reading 'parameter_id')");
        if (const auto pid = string_member(u, "parameter_id")) by_param_.insert_or_assign(std::string(*pid), &u);
      }
    }
    const Json* eu_list = member(e_, "updates");
    if (!eu_list) return;
    for (const auto& eu : *eu_list) {
      const std::string pid(*string_member(eu, "parameter_id"));
      const auto found = by_param_.find(pid);
      const std::string base = "updates[" + pid + "]";
      if (found == by_param_.end()) {
        missing(base, "the engine produced an update for parameter " + Tree(std::string(pid)).dump() +
                          " but the receipt's updates[] has NO entry for it (selective omission).",
                nullptr, pid);
        continue;
      }
      const Json& ru = *found->second;
      for (const char* field : {"gradient", "update", "weight_after"}) {
        compare(base + "." + field, member(eu, field), member(ru, field));
      }
      const Json* eo = member(eu, "optimizer");
      const Json* ro = member(ru, "optimizer");
      const Json* ea = core::lookup(eo, "state_after");
      const Json* ra = core::lookup(ro, "state_after");
      if (core::truthy(ea) && core::truthy(ra) && js_strict_equal_name(core::lookup(eo, "name"), core::lookup(ro, "name"))) {
        const auto name = as_string(core::lookup(eo, "name"));
        const std::string sbase = base + ".optimizer.state_after.";
        if (name && (*name == "adam" || *name == "adamw")) {
          compare(sbase + "m", core::lookup(ea, "m"), core::lookup(ra, "m"));
          compare(sbase + "v", core::lookup(ea, "v"), core::lookup(ra, "v"));
        } else if (name && *name == "sgd_momentum") {
          compare(sbase + "buffer", core::lookup(ea, "buffer"), core::lookup(ra, "buffer"));
        }
      }
    }
  }

  static bool js_strict_equal_name(const Json* a, const Json* b) {
    return a && b && a->is_string() && b->is_string() && a->string() == b->string();
  }

  void parameters_after_section() {
    const Json* epa = member(e_, "parameters_after");
    const Json* rpa = member(r_, "parameters_after");
    for (const auto& [pid, ev] : js_members(epa)) compare("parameters_after." + std::string(pid), ev, core::lookup(rpa, pid));
    const Json* order = core::lookup(member(r_, "topology"), "parameter_order");
    const auto observed = js_object_keys(coalesce(rpa, &kEmptyObject));
    const std::unordered_set<std::string> observed_set(observed.begin(), observed.end());
    std::unordered_set<std::string> declared;
    if (order && order->is_array()) {
      for (const auto& id : *order) {
        const std::string pid = js_string(&id);
        declared.insert(pid);
        if (observed_set.count(pid) == 0) {
          missing("parameters_after." + pid, "parameter " + Tree(std::string(pid)).dump() +
                                                 " is declared in topology.parameter_order but ABSENT from "
                                                 "parameters_after.",
                  nullptr, pid);
        }
      }
    }
    for (const auto& pid : observed) {
      if (declared.count(pid) == 0) {
        missing("parameters_after." + pid, "parameters_after contains parameter " + Tree(std::string(pid)).dump() +
                                               " NOT declared in topology.parameter_order.",
                nullptr, pid);
      }
    }
  }

  // Deliberate difference: every other number the engine recomputed, where the receipt claims a
  // number at the same place. Arrays pair by index, except updates (by parameter_id) and named
  // factors (only when the names agree).
  void extended_section() {
    for (const char* section : {"forward", "loss", "backward", "parameters_after", "post_update_loss", "per_sample"}) {
      const Json* ev = member(e_, section);
      if (ev) walk(*ev, member(r_, section), section);
    }
    if (const Json* epf = member(e_, "post_update_forward")) {
      const Json* rpf = member(r_, "post_update_forward");
      const Json* nested = core::lookup(rpf, "units");
      walk(*epf, nested && js_object(*nested) ? nested : rpf, "post_update_forward");
    }
    if (const Json* eu_list = member(e_, "updates")) {
      for (const auto& eu : *eu_list) {
        const std::string pid(*string_member(eu, "parameter_id"));
        const auto found = by_param_.find(pid);
        if (found != by_param_.end()) walk(eu, found->second, "updates[" + pid + "]");
      }
    }
  }

  void walk(const Json& ev, const Json* rv, const std::string& path) {
    if (!rv) return;
    if (ev.is_number()) {
      if (rv->is_number() && compared_.count(path) == 0) compare(path, &ev, rv, true);
      return;
    }
    if (ev.is_object()) {
      if (!rv->is_object()) return;
      for (const auto& [key, child] : js_members(&ev)) walk(*child, member(*rv, key), path + "." + std::string(key));
      return;
    }
    if (ev.is_array() && rv->is_array()) {
      for (std::size_t i = 0; i < ev.size() && i < rv->size(); ++i) {
        const Json& a = ev[i];
        const Json& b = (*rv)[i];
        const auto an = a.is_object() ? string_member(a, "name") : std::nullopt;
        const auto bn = b.is_object() ? string_member(b, "name") : std::nullopt;
        if (an && (!bn || *an != *bn)) continue;  // a differently named factor is another claim
        const auto af = a.is_object() ? string_member(a, "from") : std::nullopt;
        const auto bf = b.is_object() ? string_member(b, "from") : std::nullopt;
        if (!an && af && (!bf || *af != *bf)) continue;  // downstream contributions pair by source unit
        walk(a, &b, path + "[" + std::to_string(i) + "]");
      }
    }
  }

  const Json& r_;
  const Json& e_;
  Tolerance tol_;
  FailureSink& out_;
  std::unordered_set<std::string> compared_;
  std::unordered_map<std::string, const Json*> by_param_;
};

}  // namespace

void compare_with_engine_tree(const Tree& receipt, const Tree& engine, Tolerance tolerance, FailureSink& out) {
  const ReadReceipt r(receipt), e(engine);
  Differential(r.root(), e.root(), tolerance, out).run();
}

}  // namespace rule14_tree
