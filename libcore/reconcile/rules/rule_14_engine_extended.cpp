// Rule 14's phase 2 over the engine's GeneralReceipt. It visits what the JSON form walked (the
// engine's sections forward, loss, backward, parameters_after, post_update_loss, per_sample, then
// post_update_forward and the updates by parameter_id), fields in the order
// receipt/engine/receipt_json.cpp writes them and ids in EngineKeys' order, and reads the receipt's
// value at the same place: a number there is compared unless phase 1 compared that path. Arrays
// pair by index, except named factors (only when the names agree) and downstream contributions
// (only when their source units agree). The engine's strings are never compared.
#include "reconcile/rules/rule_14_engine_extended.hpp"

#include <array>
#include <cstdint>
#include <span>
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

  // The receipt's number at path.key, when it claims one there.
  void leaf(const PathPieces& path, std::string_view key, double value, const Json& stored) {
    const Json* s = member(stored, key);
    if (s && s->is_number()) found_.compare(path.then({".", key}), value, s, true);
  }

  template <class Values>
  void walk_map(const PathPieces& path, const std::vector<Key>& keys, const Values& values, const Json& stored) {
    for (const Key& k : keys) leaf(path, k.name, values[k.at], stored);
  }

  // An engine array of named factors against the receipt's `factors` array: entry i pairs with the
  // receipt's entry i when that names the same factor.
  void walk_factors(const PathPieces& path, std::span<const Factor> factors, const Json& stored) {
    const Json* arr = array_member(stored, "factors");
    if (!arr) return;
    std::string spill;
    for (std::size_t i = 0; i < factors.size() && i < arr->size(); ++i) {
      const Json& b = (*arr)[i];
      const auto bn = b.is_object() ? string_member(b, "name") : std::nullopt;
      if (!bn || *bn != factors[i].name) continue;
      leaf(path.then({".factors", index_piece(i, spill)}), "value", factors[i].value, b);
    }
  }

  // signal_value: phase 1's.
  void walk_output_signal(const PathPieces& path, std::size_t u, const Json& stored) {
    const std::size_t n_out = t_.unit_order.output.size();
    const bool softmax = t_.loss == receipt::topology::Loss::cross_entropy_softmax;
    if (softmax) {
      const Factor signal[] = {{"target_minus_probability", c_.sig_o[u]}};
      walk_factors(path, signal, stored);
    } else {
      const Factor signal[] = {{"target_minus_output", c_.tmo[u]}, {"activation_derivative", c_.ad_o[u]}};
      walk_factors(path, signal, stored);
      return;
    }
    const Json* dual = object_member(stored, "dual_form");
    if (!dual) return;
    const PathPieces dpath = path.then({".dual_form"});
    if (const Json* terms = array_member(*dual, "jacobian_terms")) {
      const double* y = e_.targets();
      std::string spill;
      for (std::size_t j = 0; j < n_out && j < terms->size(); ++j) {
        const Json& term = (*terms)[j];  // the engine's term names nothing to pair by
        if (!term.is_object()) continue;
        const PathPieces tpath = dpath.then({".jacobian_terms", index_piece(j, spill)});
        const Factor factors[] = {{"y_j", y[j]}, {"delta_ju_minus_p_u", c_.dual_delta_minus_p[u * n_out + j]}};
        walk_factors(tpath, factors, term);
        leaf(tpath, "term_value", c_.dual_term[u * n_out + j], term);
      }
    }
    leaf(dpath, "summed_value", c_.dual_sum[u], *dual);
  }

  // backpropagated_sum, activation_derivative and signal_value: phase 1's.
  void walk_hidden_signal(const PathPieces& path, std::size_t h, const Json& stored) {
    const auto& outs = t_.unit_order.output;
    const std::size_t n_out = outs.size();
    const Json* arr = array_member(stored, "downstream_contributions");
    if (!arr) return;
    const double* params = e_.input->base.parameters_before.data();
    std::string spill;
    for (std::size_t o = 0; o < n_out && o < arr->size(); ++o) {
      const Json& b = (*arr)[o];
      const auto bf = b.is_object() ? string_member(b, "from") : std::nullopt;
      if (!bf || *bf != outs[o]) continue;  // downstream contributions pair by source unit
      const std::uint32_t w = e_.index.w_ho[o * e_.index.n_hid + h];
      const PathPieces cpath = path.then({".downstream_contributions", index_piece(o, spill)});
      leaf(cpath, "downstream_signal", c_.sig_o[o], b);
      leaf(cpath, "weight_value", params[w], b);
      leaf(cpath, "value", c_.contrib[h * n_out + o], b);
    }
  }

  void walk_backward(const Json& stored) {
    if (const Json* signals = object_member(stored, "output_error_signals")) {
      for (const Key& k : keys_.output) {
        if (const Json* s = object_member(*signals, k.name)) {
          walk_output_signal({"backward.output_error_signals.", k.name}, k.at, *s);
        }
      }
    }
    if (const Json* signals = object_member(stored, "hidden_error_signals")) {
      for (const Key& k : keys_.hidden) {
        if (const Json* s = object_member(*signals, k.name)) {
          walk_hidden_signal({"backward.hidden_error_signals.", k.name}, k.at, *s);
        }
      }
    }
  }

  // A sample's inputs and targets (its forward and loss: phase 1's).
  void walk_per_sample(const Json& stored) {
    for (const Key& k : keys_.sample) {
      const Json* entry = object_member(stored, k.name);
      if (!entry) continue;
      const receipt::engine::Sample& smp = e_.input->batch->samples[k.at];
      const PathPieces path{"per_sample.", k.name};
      if (const Json* in = object_member(*entry, "inputs")) walk_map(path.then({".inputs"}), keys_.input, smp.inputs, *in);
      if (const Json* tg = object_member(*entry, "targets")) {
        walk_map(path.then({".targets"}), keys_.output, smp.targets, *tg);
      }
    }
  }

  // At most two factors; `size` of `factor` are used.
  struct GradientFactors {
    std::array<Factor, 2> factor{};
    std::size_t size = 0;
  };

  GradientFactors gradient_factors(const UpdateRecord& u) const {
    using receipt::topology::Role;
    if (e_.batched()) return {{{{"batch_reduced_gradient", u.gradient}}}, 1};
    const auto& s = e_.index.slots[u.slot];
    const double* x = e_.inputs();
    switch (s.role) {
      case Role::input_to_hidden_weight:
        return {{{{"hidden_error_signal", c_.sig_h[s.to]}, {"upstream_activation", x[s.from]}}}, 2};
      case Role::hidden_to_output_weight:
        return {{{{"output_error_signal", c_.sig_o[s.to]}, {"upstream_activation", c_.fwd.out_h[s.from]}}}, 2};
      case Role::hidden_bias: return {{{{"hidden_error_signal", c_.sig_h[s.from]}}}, 1};
      case Role::output_bias: return {{{{"output_error_signal", c_.sig_o[s.from]}}}, 1};
    }
    return {};
  }

  void walk_state(const PathPieces& path, const char* key, const receipt::engine::OptimizerState& state,
                  const Json& optimizer) {
    const Json* s = object_member(optimizer, key);
    if (!s) return;
    const PathPieces at = path.then({".", key});
    if (e_.input->optimizer->name == receipt::engine::OptimizerName::sgd_momentum) {
      leaf(at, "buffer", state.buffer, *s);
    } else {
      leaf(at, "m", state.m, *s);
      leaf(at, "v", state.v, *s);
    }
  }

  // gradient, update and weight_after, and state_after where the update names the engine's
  // optimizer: phase 1's.
  void walk_update(const UpdateRecord& u, const Json& stored) {
    const PathPieces path{"updates[", t_.parameters[u.slot].id, "]"};
    leaf(path, "weight_before", u.weight_before, stored);
    if (const Json* opt = object_member(stored, "optimizer")) {
      const PathPieces opath = path.then({".optimizer"});
      leaf(opath, "learning_rate", e_.input->base.learning_rate, *opt);
      const GradientFactors g = gradient_factors(u);
      walk_factors(opath, std::span<const Factor>(g.factor.data(), g.size), *opt);
      if (e_.stateful) {
        walk_state(opath, "state_before", u.state_before, *opt);
        if (!state_after_compared(stored, e_.optimizer_name())) walk_state(opath, "state_after", u.state_after, *opt);
      }
    }
  }

  // post_update_forward's units: phase 1 passes over the key "status" (the block's own), so a unit
  // named "status" (its value the unit's, `at` past 0) is compared here.
  void walk_status_unit() {
    const Json* units = post_forward_units(member(r_, "post_update_forward"));
    if (!units || !units->is_object()) return;
    for (const Key& k : keys_.post_forward) {
      if (k.name != "status" || k.at == 0) continue;
      const Json* su = object_member(*units, k.name);
      if (!su) continue;
      const PathPieces path{"post_update_forward.status"};
      leaf(path, "net", unit_net(e_.post_forward, n_hidden_, k.at - 1), *su);
      leaf(path, "out", unit_out(e_.post_forward, n_hidden_, k.at - 1), *su);
    }
  }

  // The sections in the order the engine's JSON receipt holds them; forward, parameters_after
  // and post_update_loss have nothing phase 1 did not compare.
  void run() {
    if (e_.batched()) {
      if (const Json* loss = object_member(r_, "loss")) {
        if (const Json* ps = object_member(*loss, "per_sample")) {
          const PathPieces path{"loss.per_sample"};
          for (const Key& k : keys_.sample) leaf(path, k.name, e_.samples[k.at].loss_total, *ps);
        }
      }
    }
    if (const Json* s = object_member(r_, "backward")) walk_backward(*s);
    if (e_.batched()) {
      if (const Json* s = object_member(r_, "per_sample")) walk_per_sample(*s);
    }
    walk_status_unit();
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
};

}  // namespace

bool state_after_compared(const Json& update, std::string_view optimizer_name) {
  const Json* ro = member(update, "optimizer");
  const Json* rname = core::lookup(ro, "name");
  return core::truthy(core::lookup(ro, "state_after")) && rname && rname->is_string() &&
         rname->string() == optimizer_name;
}

const Json* post_forward_units(const Json* post_update_forward) {
  const Json* nested = core::lookup(post_update_forward, "units");
  return nested && js_object(*nested) ? nested : post_update_forward;
}

void compare_extended(const Json& receipt, const GeneralReceipt& engine, const EngineKeys& keys,
                      const UpdatesById& updates, Findings& findings) {
  ExtendedWalk(receipt, engine, keys, updates, findings).run();
}

}  // namespace reconcile::rules::rule14
