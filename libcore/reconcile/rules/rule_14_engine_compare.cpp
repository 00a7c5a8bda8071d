// Rule 14's differential read from the engine's GeneralReceipt. Each step follows the JSON form it
// replaced (tests/reconcile/rule_14_differential_tree.cpp) check for check: where that form
// iterated one of the engine's objects, this one visits the same ids in the order Object.keys
// gives them (js_key_order: array-index keys ascending first), and where it walked the engine's
// arrays and objects it visits the fields in the order receipt/engine/receipt_json.cpp writes
// them (receipt/layout/fields.hpp). Only numbers are compared, so the engine's strings are skipped
// except where they decide whether an array entry pairs with the receipt's.
#include "reconcile/rules/rule_14_engine_compare.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"

namespace reconcile::rules {
namespace rule14 {  // named, so that these names meet no other file's in a unity batch
namespace {

using receipt::engine::ForwardValues;
using receipt::engine::GeneralReceipt;
using receipt::engine::UpdateRecord;

constexpr const char* kTag = "Rule 14 (engine-recompute differential): ";
constexpr const char* kCompleteTag = "Rule 14 (engine-recompute COMPLETENESS): ";

const Json kNoMembers = Json::object();

// a ?? b for JSON: a when present and not null.
const Json* coalesce(const Json* a, const Json* b) { return a && !a->is_null() ? a : b; }

// One key of an engine object and which of the values written under it is the one read.
struct Key {
  std::string_view name;
  std::size_t at;  // index into the list the object was written from
};

// The keys of an object written from `keys` in order, as Object.keys lists them: array-index
// keys ascending, then the others in first-appearance order; a repeated key keeps its first place
// and its last value (post_update_forward's "status" and a unit named "status").
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

std::vector<std::string_view> views(std::initializer_list<const std::vector<std::string>*> lists,
                                    const char* first = nullptr) {
  std::vector<std::string_view> out;
  if (first) out.emplace_back(first);
  for (const auto* list : lists) out.insert(out.end(), list->begin(), list->end());
  return out;
}

const Json* object_at(const Json* stored, std::string_view key) {
  const Json* c = member(stored, key);
  return c && c->is_object() ? c : nullptr;
}

const Json* array_at(const Json* stored, std::string_view key) {
  const Json* c = member(stored, key);
  return c && c->is_array() ? c : nullptr;
}

// A factor of a product as the engine writes it ({name, from?, value}); the pairing reads only
// its name.
struct Factor {
  const char* name;
  double value;
};

class EngineDifferential {
 public:
  EngineDifferential(const Json& receipt, const GeneralReceipt& engine, Tolerance tol, FailureSink& out)
      : r_(receipt), e_(engine), t_(engine.topology()), c_(engine.core), tol_(tol), out_(out) {
    const auto& ord = t_.unit_order;
    forward_keys_ = js_key_order(views({&ord.hidden, &ord.output}));
    post_forward_keys_ = js_key_order(views({&ord.hidden, &ord.output}, "status"));
    input_keys_ = js_key_order(views({&ord.input}));
    output_keys_ = js_key_order(views({&ord.output}));
    hidden_keys_ = js_key_order(views({&ord.hidden}));
    parameter_keys_ = js_key_order(views({&t_.parameter_order}));
    if (e_.batched()) {
      std::vector<std::string_view> ids;
      const auto& samples = e_.input->batch->samples;
      for (std::size_t s = 0; s < e_.samples.size(); ++s) ids.emplace_back(samples[s].id);
      sample_keys_ = js_key_order(ids);
    }
  }

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
  // A unit of a forward map by its index in hidden ++ output.
  double net(const ForwardValues& f, std::size_t i) const {
    const std::size_t n_hid = t_.unit_order.hidden.size();
    return i < n_hid ? f.net_h[i] : f.net_o[i - n_hid];
  }
  double out(const ForwardValues& f, std::size_t i) const {
    const std::size_t n_hid = t_.unit_order.hidden.size();
    return i < n_hid ? f.out_h[i] : f.out_o[i - n_hid];
  }

  const std::vector<double>& loss_per_output() const { return e_.batched() ? e_.reduced_loss_per_output : c_.loss_o; }
  double loss_total() const { return e_.batched() ? e_.reduced_loss_total : c_.loss_total; }
  const std::string& parameter_id(const UpdateRecord& u) const { return t_.parameters[u.slot].id; }

  // One claimed number against the engine's (the reference names no parameter on these).
  void compare(const std::string& path, double recomputed, const Json* receipt_value, bool extended = false) {
    if (!receipt_value || !receipt_value->is_number()) return;  // shape is the schema's domain
    compared_.insert(path);
    const double stored = receipt_value->get<double>();
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

  void missing(const std::string& path, std::string message, std::optional<double> recomputed = std::nullopt,
               std::optional<std::string> parameter_id = std::nullopt) {
    Failure f = plain_failure(14, path, std::string(kCompleteTag) + std::move(message), std::move(parameter_id));
    if (recomputed) f.recomputed = *recomputed;
    out_.add(std::move(f));
  }

  // Forward-shaped maps ({unit: {net, out}}): the receipt's key set equals the engine's, every
  // unit carries both numbers. post_update_forward (`reserved`) has a "status" key besides its
  // units, skipped on both sides, and may nest its units under "units".
  void unit_map(const std::string& base, const ForwardValues& f, const Json* receipt_units, bool reserved) {
    std::unordered_set<std::string_view> engine_keys;
    for (const Key& k : reserved ? post_forward_keys_ : forward_keys_) {
      if (reserved && k.name == "status") continue;
      const std::size_t unit = reserved ? k.at - 1 : k.at;
      engine_keys.emplace(k.name);
      const std::string name(k.name);
      const std::string path = base + "." + name;
      const Json* ru = core::lookup(receipt_units, name);
      const bool present = reserved ? (ru && js_object(*ru)) : core::truthy(ru);
      if (!present) {
        missing(path, "the engine recomputed " + base + " unit " + Json(name).dump() +
                          " but the receipt has NO entry for it (selective omission).");
        continue;
      }
      for (const auto& [field, value] : {std::pair<const char*, double>{"net", net(f, unit)}, {"out", out(f, unit)}}) {
        const Json* rv = core::lookup(ru, field);
        if (!rv || !rv->is_number()) {
          missing(path + "." + field, base + " unit " + Json(name).dump() + " is missing its " + field +
                                          " value; a unit must carry BOTH net and out.",
                  value);
        } else {
          compare(path + "." + field, value, rv);
        }
      }
    }
    for (const auto& key : js_object_keys(receipt_units)) {
      if (reserved && (key == "status" || key == "units")) continue;
      if (engine_keys.count(key) == 0) {
        missing(base + "." + key, "the receipt's " + base + " declares unit " + Json(key).dump() +
                                      " that the engine did NOT recompute (no extra units).");
      }
    }
  }

  // {output unit: number} maps whose key set must equal the engine's.
  void output_map(const std::string& base, const std::vector<double>& values, const Json* receipt_map) {
    std::unordered_set<std::string_view> engine_keys;
    for (const Key& k : output_keys_) {
      engine_keys.emplace(k.name);
      const std::string path = base + "." + std::string(k.name);
      const Json* rv = core::lookup(receipt_map, k.name);
      if (!rv || !rv->is_number()) {
        missing(path, "the engine recomputed " + path + " but the receipt is missing it.", values[k.at]);
      } else {
        compare(path, values[k.at], rv);
      }
    }
    for (const auto& key : js_object_keys(receipt_map)) {
      if (engine_keys.count(key) == 0) {
        missing(base + "." + key, "the receipt's " + base + " declares " + Json(key).dump() +
                                      " that the engine did NOT recompute.");
      }
    }
  }

  void forward_section() { unit_map("forward", c_.fwd, coalesce(member(r_, "forward"), &kNoMembers), false); }

  void loss_section() {
    const Json* rl = member(r_, "loss");
    for (const Key& k : output_keys_) {
      compare("loss.per_output." + std::string(k.name), loss_per_output()[k.at],
              core::lookup(core::lookup(rl, "per_output"), k.name));
    }
    compare("loss.total", loss_total(), core::lookup(rl, "total"));
  }

  // The units of the receipt's post_update_forward: its "units" member when that is an object.
  static const Json* post_forward_units(const Json* rpf) {
    const Json* nested = core::lookup(rpf, "units");
    return nested && js_object(*nested) ? nested : rpf;
  }

  void post_update_section() {
    const Json* rpf = member(r_, "post_update_forward");
    if (core::truthy(rpf)) unit_map("post_update_forward", e_.post_forward, post_forward_units(rpf), true);
    const Json* rpl = member(r_, "post_update_loss");
    if (core::truthy(rpl)) {
      output_map("post_update_loss.per_output", e_.post_loss_per_output,
                 coalesce(core::lookup(rpl, "per_output"), &kNoMembers));
      compare("post_update_loss.total", e_.post_loss_total, core::lookup(rpl, "total"));
    }
  }

  void per_sample_section() {
    const Json* rps = member(r_, "per_sample");
    if (!e_.batched() || !core::truthy(rps)) return;
    for (const Key& k : sample_keys_) {
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
        missing(base + ".loss.total", "receipt per-sample " + Json(sid).dump() + " is missing its loss.total.",
                rec.loss_total);
      } else {
        compare(base + ".loss.total", rec.loss_total, total);
      }
    }
  }

  void backward_section() {
    const Json* rb = member(r_, "backward");
    for (const Key& k : output_keys_) {
      const Json* rs = core::lookup(core::lookup(rb, "output_error_signals"), k.name);
      if (!core::truthy(rs)) continue;
      compare("backward.output_error_signals." + std::string(k.name) + ".signal_value", c_.sig_o[k.at],
              core::lookup(rs, "signal_value"));
    }
    for (const Key& k : hidden_keys_) {
      const Json* rs = core::lookup(core::lookup(rb, "hidden_error_signals"), k.name);
      if (!core::truthy(rs)) continue;
      const std::string base = "backward.hidden_error_signals." + std::string(k.name) + ".";
      compare(base + "backpropagated_sum", c_.bsum_h[k.at], core::lookup(rs, "backpropagated_sum"));
      compare(base + "activation_derivative", c_.ad_h[k.at], core::lookup(rs, "activation_derivative"));
      compare(base + "signal_value", c_.sig_h[k.at], core::lookup(rs, "signal_value"));
    }
  }

  void updates_section() {
    if (const Json* updates = array_member(r_, "updates")) {
      for (const auto& u : *updates) {
        if (u.is_null()) throw std::runtime_error("Cannot read properties of null (reading 'parameter_id')");
        if (const std::string* pid = string_member(u, "parameter_id")) by_param_.insert_or_assign(*pid, &u);
      }
    }
    const char* name = e_.optimizer_name();
    for (const UpdateRecord& eu : e_.updates) {
      const std::string& pid = parameter_id(eu);
      const auto found = by_param_.find(pid);
      const std::string base = "updates[" + pid + "]";
      if (found == by_param_.end()) {
        missing(base, "the engine produced an update for parameter " + Json(pid).dump() +
                          " but the receipt's updates[] has NO entry for it (selective omission).",
                std::nullopt, pid);
        continue;
      }
      const Json& ru = *found->second;
      compare(base + ".gradient", eu.gradient, member(ru, "gradient"));
      compare(base + ".update", eu.update, member(ru, "update"));
      compare(base + ".weight_after", eu.weight_after, member(ru, "weight_after"));
      if (!e_.stateful) continue;  // the engine's update has no state_after
      const Json* ro = member(ru, "optimizer");
      const Json* rname = core::lookup(ro, "name");
      if (!core::truthy(core::lookup(ro, "state_after")) || !rname || !rname->is_string() ||
          rname->get_ref<const std::string&>() != name) {
        continue;
      }
      const Json* ra = core::lookup(ro, "state_after");
      const std::string sbase = base + ".optimizer.state_after.";
      const std::string_view n(name);
      if (n == "adam" || n == "adamw") {
        compare(sbase + "m", eu.state_after.m, core::lookup(ra, "m"));
        compare(sbase + "v", eu.state_after.v, core::lookup(ra, "v"));
      } else if (n == "sgd_momentum") {
        compare(sbase + "buffer", eu.state_after.buffer, core::lookup(ra, "buffer"));
      }
    }
  }

  void parameters_after_section() {
    const Json* rpa = member(r_, "parameters_after");
    for (const Key& k : parameter_keys_) {
      compare("parameters_after." + std::string(k.name), e_.parameters_after[k.at], core::lookup(rpa, k.name));
    }
    const Json* order = core::lookup(member(r_, "topology"), "parameter_order");
    const auto observed = js_object_keys(coalesce(rpa, &kNoMembers));
    const std::unordered_set<std::string> observed_set(observed.begin(), observed.end());
    std::unordered_set<std::string> declared;
    if (order && order->is_array()) {
      for (const auto& id : *order) {
        const std::string pid = js_string(&id);
        declared.insert(pid);
        if (observed_set.count(pid) == 0) {
          missing("parameters_after." + pid, "parameter " + Json(pid).dump() +
                                                 " is declared in topology.parameter_order but ABSENT from "
                                                 "parameters_after.",
                  std::nullopt, pid);
        }
      }
    }
    for (const auto& pid : observed) {
      if (declared.count(pid) == 0) {
        missing("parameters_after." + pid, "parameters_after contains parameter " + Json(pid).dump() +
                                               " NOT declared in topology.parameter_order.",
                std::nullopt, pid);
      }
    }
  }

  // --- Phase 2 (deliberate difference): every other number the engine recomputed, where the
  // receipt claims a number at the same place. Arrays pair by index, except updates (by
  // parameter_id), named factors (only when the names agree) and downstream contributions (only
  // when their source units agree). Each visit takes the receipt's object at the engine's place.

  // The receipt's number at path.key, compared when no earlier comparison took that path.
  void leaf(const std::string& path, std::string_view key, double value, const Json& stored) {
    const Json* s = member(stored, key);
    if (!s || !s->is_number()) return;
    std::string at = path;
    at += '.';
    at += key;
    if (compared_.count(at) == 0) compare(at, value, s, true);
  }

  void walk_units(const std::string& path, const ForwardValues& f, const Json& stored, bool with_status) {
    for (const Key& k : with_status ? post_forward_keys_ : forward_keys_) {
      if (with_status && k.at == 0) continue;  // the "status" string
      const std::size_t unit = with_status ? k.at - 1 : k.at;
      const Json* su = object_at(&stored, k.name);
      if (!su) continue;
      const std::string at = path + "." + std::string(k.name);
      leaf(at, "net", net(f, unit), *su);
      leaf(at, "out", out(f, unit), *su);
    }
  }

  template <class Values>
  void walk_map(const std::string& path, const std::vector<Key>& keys, const Values& values, const Json& stored) {
    for (const Key& k : keys) leaf(path, k.name, values[k.at], stored);
  }

  void walk_loss(const std::string& path, const std::vector<double>& per_output, double total, const Json& stored) {
    if (const Json* po = object_at(&stored, "per_output")) walk_map(path + ".per_output", output_keys_, per_output, *po);
    leaf(path, "total", total, stored);
  }

  void walk_batched_loss(const Json& stored) {
    if (const Json* po = object_at(&stored, "per_output")) {
      walk_map("loss.per_output", output_keys_, e_.reduced_loss_per_output, *po);
    }
    if (const Json* ps = object_at(&stored, "per_sample")) {
      for (const Key& k : sample_keys_) leaf("loss.per_sample", k.name, e_.samples[k.at].loss_total, *ps);
    }
    leaf("loss", "total", e_.reduced_loss_total, stored);
  }

  // An engine array of named factors against the receipt's `factors` array: entry i pairs with the
  // receipt's entry i when that names the same factor.
  void walk_factors(const std::string& path, const std::vector<Factor>& factors, const Json& stored) {
    const Json* arr = array_at(&stored, "factors");
    if (!arr) return;
    for (std::size_t i = 0; i < factors.size() && i < arr->size(); ++i) {
      const Json& b = (*arr)[i];
      const std::string* bn = b.is_object() ? string_member(b, "name") : nullptr;
      if (!bn || *bn != factors[i].name) continue;
      leaf(path + ".factors[" + std::to_string(i) + "]", "value", factors[i].value, b);
    }
  }

  void walk_output_signal(const std::string& path, std::size_t u, const Json& stored) {
    const std::size_t n_out = t_.unit_order.output.size();
    const bool softmax = t_.loss == receipt::topology::Loss::cross_entropy_softmax;
    if (softmax) {
      walk_factors(path, {{"target_minus_probability", c_.sig_o[u]}}, stored);
    } else {
      walk_factors(path, {{"target_minus_output", c_.tmo[u]}, {"activation_derivative", c_.ad_o[u]}}, stored);
    }
    leaf(path, "signal_value", c_.sig_o[u], stored);
    if (!softmax) return;
    const Json* dual = object_at(&stored, "dual_form");
    if (!dual) return;
    const std::string dpath = path + ".dual_form";
    if (const Json* terms = array_at(dual, "jacobian_terms")) {
      const double* y = e_.targets();
      for (std::size_t j = 0; j < n_out && j < terms->size(); ++j) {
        const Json& term = (*terms)[j];  // the engine's term names nothing to pair by
        if (!term.is_object()) continue;
        const std::string tpath = dpath + ".jacobian_terms[" + std::to_string(j) + "]";
        walk_factors(tpath, {{"y_j", y[j]}, {"delta_ju_minus_p_u", c_.dual_delta_minus_p[u * n_out + j]}}, term);
        leaf(tpath, "term_value", c_.dual_term[u * n_out + j], term);
      }
    }
    leaf(dpath, "summed_value", c_.dual_sum[u], *dual);
  }

  void walk_hidden_signal(const std::string& path, std::size_t h, const Json& stored) {
    const auto& outs = t_.unit_order.output;
    const std::size_t n_out = outs.size();
    if (const Json* arr = array_at(&stored, "downstream_contributions")) {
      const double* params = e_.input->base.parameters_before.data();
      for (std::size_t o = 0; o < n_out && o < arr->size(); ++o) {
        const Json& b = (*arr)[o];
        const std::string* bf = b.is_object() ? string_member(b, "from") : nullptr;
        if (!bf || *bf != outs[o]) continue;  // downstream contributions pair by source unit
        const std::uint32_t w = e_.index.w_ho[o * e_.index.n_hid + h];
        const std::string cpath = path + ".downstream_contributions[" + std::to_string(o) + "]";
        leaf(cpath, "downstream_signal", c_.sig_o[o], b);
        leaf(cpath, "weight_value", params[w], b);
        leaf(cpath, "value", c_.contrib[h * n_out + o], b);
      }
    }
    leaf(path, "backpropagated_sum", c_.bsum_h[h], stored);
    leaf(path, "activation_derivative", c_.ad_h[h], stored);
    leaf(path, "signal_value", c_.sig_h[h], stored);
  }

  void walk_backward(const Json& stored) {
    if (const Json* signals = object_at(&stored, "output_error_signals")) {
      for (const Key& k : output_keys_) {
        if (const Json* s = object_at(signals, k.name)) {
          walk_output_signal("backward.output_error_signals." + std::string(k.name), k.at, *s);
        }
      }
    }
    if (const Json* signals = object_at(&stored, "hidden_error_signals")) {
      for (const Key& k : hidden_keys_) {
        if (const Json* s = object_at(signals, k.name)) {
          walk_hidden_signal("backward.hidden_error_signals." + std::string(k.name), k.at, *s);
        }
      }
    }
  }

  void walk_per_sample(const Json& stored) {
    for (const Key& k : sample_keys_) {
      const Json* entry = object_at(&stored, k.name);
      if (!entry) continue;
      const receipt::engine::Sample& smp = e_.input->batch->samples[k.at];
      const receipt::engine::SampleRecord& rec = e_.samples[k.at];
      const std::string path = "per_sample." + std::string(k.name);
      if (const Json* in = object_at(entry, "inputs")) walk_map(path + ".inputs", input_keys_, smp.inputs, *in);
      if (const Json* tg = object_at(entry, "targets")) walk_map(path + ".targets", output_keys_, smp.targets, *tg);
      if (const Json* fw = object_at(entry, "forward")) walk_units(path + ".forward", rec.forward, *fw, false);
      if (const Json* loss = object_at(entry, "loss")) walk_loss(path + ".loss", rec.loss_per_output, rec.loss_total, *loss);
    }
  }

  std::vector<Factor> gradient_factors(const UpdateRecord& u) const {
    using receipt::topology::Role;
    if (e_.batched()) return {{"batch_reduced_gradient", u.gradient}};
    const auto& s = e_.index.slots[u.slot];
    const double* x = e_.inputs();
    switch (s.role) {
      case Role::input_to_hidden_weight: return {{"hidden_error_signal", c_.sig_h[s.to]}, {"upstream_activation", x[s.from]}};
      case Role::hidden_to_output_weight:
        return {{"output_error_signal", c_.sig_o[s.to]}, {"upstream_activation", c_.fwd.out_h[s.from]}};
      case Role::hidden_bias: return {{"hidden_error_signal", c_.sig_h[s.from]}};
      case Role::output_bias: return {{"output_error_signal", c_.sig_o[s.from]}};
    }
    return {};
  }

  void walk_state(const std::string& path, const char* key, const receipt::engine::OptimizerState& state,
                  const Json& optimizer) {
    const Json* s = object_at(&optimizer, key);
    if (!s) return;
    const std::string at = path + "." + key;
    if (e_.input->optimizer->name == receipt::engine::OptimizerName::sgd_momentum) {
      leaf(at, "buffer", state.buffer, *s);
    } else {
      leaf(at, "m", state.m, *s);
      leaf(at, "v", state.v, *s);
    }
  }

  void walk_update(const UpdateRecord& u, const Json& stored) {
    const std::string path = "updates[" + parameter_id(u) + "]";
    leaf(path, "weight_before", u.weight_before, stored);
    if (const Json* opt = object_at(&stored, "optimizer")) {
      const std::string opath = path + ".optimizer";
      leaf(opath, "learning_rate", e_.input->base.learning_rate, *opt);
      walk_factors(opath, gradient_factors(u), *opt);
      if (e_.stateful) {
        walk_state(opath, "state_before", u.state_before, *opt);
        walk_state(opath, "state_after", u.state_after, *opt);
      }
    }
    leaf(path, "gradient", u.gradient, stored);
    leaf(path, "update", u.update, stored);
    leaf(path, "weight_after", u.weight_after, stored);
  }

  void extended_section() {
    if (const Json* s = object_at(&r_, "forward")) walk_units("forward", c_.fwd, *s, false);
    if (const Json* s = object_at(&r_, "loss")) {
      if (e_.batched()) {
        walk_batched_loss(*s);
      } else {
        walk_loss("loss", c_.loss_o, c_.loss_total, *s);
      }
    }
    if (const Json* s = object_at(&r_, "backward")) walk_backward(*s);
    if (const Json* s = object_at(&r_, "parameters_after")) {
      walk_map("parameters_after", parameter_keys_, e_.parameters_after, *s);
    }
    if (const Json* s = object_at(&r_, "post_update_loss")) {
      walk_loss("post_update_loss", e_.post_loss_per_output, e_.post_loss_total, *s);
    }
    if (e_.batched()) {
      if (const Json* s = object_at(&r_, "per_sample")) walk_per_sample(*s);
    }
    const Json* units = post_forward_units(member(r_, "post_update_forward"));
    if (units && units->is_object()) walk_units("post_update_forward", e_.post_forward, *units, true);
    for (const UpdateRecord& u : e_.updates) {
      const auto found = by_param_.find(parameter_id(u));
      if (found != by_param_.end() && found->second->is_object()) walk_update(u, *found->second);
    }
  }

  const Json& r_;
  const GeneralReceipt& e_;
  const receipt::topology::Topology& t_;
  const receipt::engine::StepCore& c_;
  Tolerance tol_;
  FailureSink& out_;
  // The engine's maps in Object.keys order, each key with its index in the list it came from.
  std::vector<Key> forward_keys_, post_forward_keys_, input_keys_, output_keys_, hidden_keys_, parameter_keys_,
      sample_keys_;
  std::unordered_set<std::string> compared_;
  std::unordered_map<std::string, const Json*> by_param_;
};

}  // namespace
}  // namespace rule14

void compare_with_engine(const Json& receipt, const receipt::engine::GeneralReceipt& engine, Tolerance tolerance,
                         FailureSink& out) {
  rule14::EngineDifferential(receipt, engine, tolerance, out).run();
}

}  // namespace reconcile::rules
