// Rule 14's phase 2 over the engine's GeneralReceipt. It visits what the JSON form walked (the
// engine's sections forward, loss, backward, parameters_after, post_update_loss, per_sample, then
// post_update_forward and the updates by parameter_id), fields in the order
// receipt/engine/receipt_json.cpp writes them and ids in EngineKeys' order, and reads the receipt's
// value at the same place: a number there is compared unless phase 1 compared that path. Arrays
// pair by index, except named factors (only when the names agree) and downstream contributions
// (only when their source units agree). The engine's strings are never compared.
#include "reconcile/rules/rule_14_engine_extended.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/core_js.hpp"

namespace reconcile::rules::rule14 {
namespace {

using receipt::engine::ForwardValues;
using receipt::engine::GeneralReceipt;
using receipt::engine::UpdateRecord;

// A factor of a product as the engine writes it ({name, from?, value}); the pairing reads only
// its name.
struct Factor {
  const char* name;
  double value;
};

class ExtendedWalk {
 public:
  ExtendedWalk(const Json& receipt, const GeneralReceipt& engine, const EngineKeys& keys, const UpdatesById& updates,
               Findings& findings)
      : r_(receipt),
        e_(engine),
        t_(engine.topology()),
        c_(engine.core),
        n_hidden_(t_.unit_order.hidden.size()),
        keys_(keys),
        by_param_(updates),
        found_(findings) {}

  // The receipt's number at path.key, compared when no earlier comparison took that path.
  void leaf(const std::string& path, std::string_view key, double value, const Json& stored) {
    const Json* s = member(stored, key);
    if (!s || !s->is_number()) return;
    // One buffer for every leaf's path: most were compared in phase 1 and are only looked up.
    at_.assign(path);
    at_ += '.';
    at_ += key;
    if (!found_.compared(at_)) found_.compare(at_, value, s, true);
  }

  void walk_units(const std::string& path, const ForwardValues& f, const Json& stored, bool with_status) {
    for (const Key& k : with_status ? keys_.post_forward : keys_.forward) {
      if (with_status && k.at == 0) continue;  // the "status" string
      const std::size_t unit = with_status ? k.at - 1 : k.at;
      const Json* su = object_member(stored, k.name);
      if (!su) continue;
      const std::string at = path + "." + std::string(k.name);
      leaf(at, "net", unit_net(f, n_hidden_, unit), *su);
      leaf(at, "out", unit_out(f, n_hidden_, unit), *su);
    }
  }

  template <class Values>
  void walk_map(const std::string& path, const std::vector<Key>& keys, const Values& values, const Json& stored) {
    for (const Key& k : keys) leaf(path, k.name, values[k.at], stored);
  }

  void walk_loss(const std::string& path, const std::vector<double>& per_output, double total, const Json& stored) {
    if (const Json* po = object_member(stored, "per_output")) walk_map(path + ".per_output", keys_.output, per_output, *po);
    leaf(path, "total", total, stored);
  }

  void walk_batched_loss(const Json& stored) {
    if (const Json* po = object_member(stored, "per_output")) {
      walk_map("loss.per_output", keys_.output, e_.reduced_loss_per_output, *po);
    }
    if (const Json* ps = object_member(stored, "per_sample")) {
      for (const Key& k : keys_.sample) leaf("loss.per_sample", k.name, e_.samples[k.at].loss_total, *ps);
    }
    leaf("loss", "total", e_.reduced_loss_total, stored);
  }

  // An engine array of named factors against the receipt's `factors` array: entry i pairs with the
  // receipt's entry i when that names the same factor.
  void walk_factors(const std::string& path, const std::vector<Factor>& factors, const Json& stored) {
    const Json* arr = array_member(stored, "factors");
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
    const Json* dual = object_member(stored, "dual_form");
    if (!dual) return;
    const std::string dpath = path + ".dual_form";
    if (const Json* terms = array_member(*dual, "jacobian_terms")) {
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
    if (const Json* arr = array_member(stored, "downstream_contributions")) {
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
    if (const Json* signals = object_member(stored, "output_error_signals")) {
      for (const Key& k : keys_.output) {
        if (const Json* s = object_member(*signals, k.name)) {
          walk_output_signal("backward.output_error_signals." + std::string(k.name), k.at, *s);
        }
      }
    }
    if (const Json* signals = object_member(stored, "hidden_error_signals")) {
      for (const Key& k : keys_.hidden) {
        if (const Json* s = object_member(*signals, k.name)) {
          walk_hidden_signal("backward.hidden_error_signals." + std::string(k.name), k.at, *s);
        }
      }
    }
  }

  void walk_per_sample(const Json& stored) {
    for (const Key& k : keys_.sample) {
      const Json* entry = object_member(stored, k.name);
      if (!entry) continue;
      const receipt::engine::Sample& smp = e_.input->batch->samples[k.at];
      const receipt::engine::SampleRecord& rec = e_.samples[k.at];
      const std::string path = "per_sample." + std::string(k.name);
      if (const Json* in = object_member(*entry, "inputs")) walk_map(path + ".inputs", keys_.input, smp.inputs, *in);
      if (const Json* tg = object_member(*entry, "targets")) walk_map(path + ".targets", keys_.output, smp.targets, *tg);
      if (const Json* fw = object_member(*entry, "forward")) walk_units(path + ".forward", rec.forward, *fw, false);
      if (const Json* loss = object_member(*entry, "loss")) walk_loss(path + ".loss", rec.loss_per_output, rec.loss_total, *loss);
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
    const Json* s = object_member(optimizer, key);
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
    const std::string path = "updates[" + t_.parameters[u.slot].id + "]";
    leaf(path, "weight_before", u.weight_before, stored);
    if (const Json* opt = object_member(stored, "optimizer")) {
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

  void run() {
    if (const Json* s = object_member(r_, "forward")) walk_units("forward", c_.fwd, *s, false);
    if (const Json* s = object_member(r_, "loss")) {
      if (e_.batched()) {
        walk_batched_loss(*s);
      } else {
        walk_loss("loss", c_.loss_o, c_.loss_total, *s);
      }
    }
    if (const Json* s = object_member(r_, "backward")) walk_backward(*s);
    if (const Json* s = object_member(r_, "parameters_after")) {
      walk_map("parameters_after", keys_.parameter, e_.parameters_after, *s);
    }
    if (const Json* s = object_member(r_, "post_update_loss")) {
      walk_loss("post_update_loss", e_.post_loss_per_output, e_.post_loss_total, *s);
    }
    if (e_.batched()) {
      if (const Json* s = object_member(r_, "per_sample")) walk_per_sample(*s);
    }
    const Json* units = post_forward_units(member(r_, "post_update_forward"));
    if (units && units->is_object()) walk_units("post_update_forward", e_.post_forward, *units, true);
    for (const UpdateRecord& u : e_.updates) {
      const auto found = by_param_.find(t_.parameters[u.slot].id);
      if (found != by_param_.end() && found->second->is_object()) walk_update(u, *found->second);
    }
  }

  const Json& r_;
  const GeneralReceipt& e_;
  const receipt::topology::Topology& t_;
  const receipt::engine::StepCore& c_;
  std::size_t n_hidden_;
  const EngineKeys& keys_;
  const UpdatesById& by_param_;
  Findings& found_;
  std::string at_;  // leaf's scratch
};

}  // namespace

const Json* post_forward_units(const Json* post_update_forward) {
  const Json* nested = core::lookup(post_update_forward, "units");
  return nested && js_object(*nested) ? nested : post_update_forward;
}

void compare_extended(const Json& receipt, const GeneralReceipt& engine, const EngineKeys& keys,
                      const UpdatesById& updates, Findings& findings) {
  ExtendedWalk(receipt, engine, keys, updates, findings).run();
}

}  // namespace reconcile::rules::rule14
