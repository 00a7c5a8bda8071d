// compare_with_engine read from the engine's GeneralReceipt. Each step below follows the tree
// form it replaced (now the tests' oracle, tests/importer/differential_tree.cpp) check for check:
// the engine's fields are visited in the order receipt/engine/receipt_json.cpp writes them
// (receipt/layout/fields.hpp), array entries pair by index when their names agree, and a path is
// reported once. Only numbers are compared, so the engine's strings are skipped, except where they
// name an array entry.
#include "importer/differential.hpp"
#include "importer/differential_sink.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/member_index.hpp"

#include <array>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace importer {

using nlohmann::ordered_json;
using receipt::engine::ForwardValues;
using receipt::engine::GeneralReceipt;
using receipt::engine::UpdateRecord;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

template <class V>
bool is_number_json(const V* v) { return v && v->is_number(); }

template <class V>
const V* object_at(const V* stored, std::string_view key) {
  const V* c = member(stored, key);
  return c && c->is_object() ? c : nullptr;
}

template <class V>
const V* array_at(const V* stored, std::string_view key) {
  const V* c = member(stored, key);
  return c && c->is_array() ? c : nullptr;
}

// True when the sidecar's entry names something else at `key` than the engine's entry does.
template <class V>
bool names_other(const V& entry, const char* key, std::string_view engine_value) {
  const V* b = member(&entry, key);
  return b && !(b->is_string() && reconcile::text_or_empty(*b) == engine_value);
}

// A factor's `from` as the engine spells it, in up to three pieces: compared piece by piece, not
// joined first (a string built for every factor of every update was a tenth of the differential).
struct Spelled {
  std::string_view a, b, c;
  [[nodiscard]] bool empty() const { return a.empty() && b.empty() && c.empty(); }
  [[nodiscard]] bool is(std::string_view s) const {
    return s.size() == a.size() + b.size() + c.size() && s.substr(0, a.size()) == a &&
           s.substr(a.size(), b.size()) == b && s.substr(a.size() + b.size()) == c;
  }
};

// A factor of a product, as gradient_factors_json / output_signal_json write it.
struct Factor {
  const char* name;
  Spelled from;  // empty: the entry has no `from`
  double value;
};

// The factors of one product (never more than two), held in place.
struct Factors {
  Factors(std::initializer_list<Factor> list) {
    for (const Factor& f : list) {
      if (size < items.size()) items[size++] = f;
    }
  }
  std::array<Factor, 2> items{};
  std::size_t size = 0;
};

// True when the sidecar's entry names another source at `key` than the engine's spelling.
template <class V>
bool names_other(const V& entry, const char* key, const Spelled& engine_value) {
  const V* b = member(&entry, key);
  return b && !(b->is_string() && engine_value.is(reconcile::text_or_empty(*b)));
}

template <class V>
class StructDifferential {
 public:
  StructDifferential(const GeneralReceipt& engine, const V& sidecar, reconcile::Tolerance tolerance)
      : r_(engine), t_(engine.topology()), c_(engine.core), s_(sidecar), sink_(tolerance) {
    for (const auto& u : t_.unit_order.hidden) forward_units_.insert(u);
    for (const auto& u : t_.unit_order.output) {
      forward_units_.insert(u);
      output_units_.insert(u);
    }
    if (r_.batched()) {
      // The engine's per_sample is an object keyed by sample id: the first occurrence places a
      // key, the last one gives its value.
      const auto& samples = r_.input->batch->samples;
      for (std::size_t i = 0; i < samples.size() && i < r_.samples.size(); ++i) {
        if (sample_at_.count(samples[i].id) == 0) sample_ids_.push_back(samples[i].id);
        sample_at_.insert_or_assign(samples[i].id, i);
      }
    }
  }

  std::vector<Disagreement> run() {
    if (member(&s_, "batch")) {
      batched_samples();
    } else {
      for_each_unit(c_.fwd, [&](const std::string& unit, double net, double out) {
        const V* su = member(member(&s_, "forward"), unit);
        if (!su) return;
        sink_.compare([&] { return "forward." + unit + ".net"; }, net, member(su, "net"));
        sink_.compare([&] { return "forward." + unit + ".out"; }, out, member(su, "out"));
      });
    }
    backward_updates_parameters();
    sink_.set_extended();
    completeness();
    walk_sections();
    walk_updates();
    return sink_.take();
  }

 private:
  // Hidden units then output units, as forward_json keys them.
  template <class Fn>
  void for_each_unit(const ForwardValues& f, Fn&& fn) const {
    for (std::size_t h = 0; h < t_.unit_order.hidden.size(); ++h) fn(t_.unit_order.hidden[h], f.net_h[h], f.out_h[h]);
    for (std::size_t o = 0; o < t_.unit_order.output.size(); ++o) fn(t_.unit_order.output[o], f.net_o[o], f.out_o[o]);
  }

  const std::vector<double>& loss_per_output() const {
    return r_.batched() ? r_.reduced_loss_per_output : c_.loss_o;
  }
  double loss_total() const { return r_.batched() ? r_.reduced_loss_total : c_.loss_total; }

  void unit_map_complete(const std::string& base, const ForwardValues& f, const V* stored) {
    for_each_unit(f, [&](const std::string& unit, double net, double out) {
      const V* su = member(stored, unit);
      if (!su || su->is_null()) {
        sink_.missing(base + "." + unit);
        return;
      }
      for (const auto& [field, value] : {std::pair<const char*, double>{"net", net}, {"out", out}}) {
        const auto path = [&, field = field] { return base + "." + unit + "." + field; };
        if (!is_number_json(member(su, field))) {
          sink_.missing(path);
        } else {
          sink_.compare(path, value, member(su, field));
        }
      }
    });
    if (!stored || !stored->is_object()) return;
    for (auto it = stored->begin(); it != stored->end(); ++it) {
      if (forward_units_.count(it.key()) == 0) sink_.missing(base + "." + std::string(it.key()));
    }
  }

  void output_map_complete(const std::string& base, const std::vector<double>& values, const V* stored) {
    const auto& outs = t_.unit_order.output;
    for (std::size_t o = 0; o < outs.size(); ++o) {
      const V* sv = member(stored, outs[o]);
      const auto path = [&] { return base + "." + outs[o]; };
      if (!is_number_json(sv)) {
        sink_.missing(path);
      } else {
        sink_.compare(path, values[o], sv);
      }
    }
    if (!stored || !stored->is_object()) return;
    for (auto it = stored->begin(); it != stored->end(); ++it) {
      if (output_units_.count(it.key()) == 0) sink_.missing(base + "." + std::string(it.key()));
    }
  }

  void batched_samples() {
    const V* order = member(member(&s_, "batch"), "sample_order");
    if (order && order->is_array()) {
      const reconcile::MemberIndex<V> per_sample(member(&s_, "per_sample"));
      for (const auto& sid_json : *order) {
        if (!sid_json.is_string()) continue;
        const std::string sid(reconcile::text_or_empty(sid_json));
        const auto found = sample_at_.find(sid);
        const V* ss = per_sample.find(sid);
        if (found == sample_at_.end() || !ss) continue;
        const receipt::engine::SampleRecord& rec = r_.samples[found->second];
        const std::string base = "per_sample." + sid;
        unit_map_complete(base + ".forward", rec.forward, member(ss, "forward"));
        output_map_complete(base + ".loss.per_output", rec.loss_per_output, member(member(ss, "loss"), "per_output"));
        const V* total = member(member(ss, "loss"), "total");
        if (!is_number_json(total)) {
          sink_.missing(base + ".loss.total");
        } else {
          sink_.compare([&] { return base + ".loss.total"; }, rec.loss_total, total);
        }
      }
    }
    const auto& outs = t_.unit_order.output;
    for (std::size_t o = 0; o < outs.size(); ++o) {
      sink_.compare([&] { return "loss.per_output." + outs[o]; }, loss_per_output()[o],
                    member(member(member(&s_, "loss"), "per_output"), outs[o]));
    }
    sink_.compare("loss.total", loss_total(), member(member(&s_, "loss"), "total"));
  }

  const std::string& parameter_id(const UpdateRecord& u) const { return t_.parameters[u.slot].id; }

  void backward_updates_parameters() {
    const V* sb = member(&s_, "backward");
    const auto& outs = t_.unit_order.output;
    const auto& hids = t_.unit_order.hidden;
    for (std::size_t u = 0; u < outs.size(); ++u) {
      const V* ss = member(member(sb, "output_error_signals"), outs[u]);
      if (!ss) continue;
      sink_.compare([&] { return "backward.output_error_signals." + outs[u] + ".signal_value"; }, c_.sig_o[u],
                    member(ss, "signal_value"));
    }
    for (std::size_t h = 0; h < hids.size(); ++h) {
      const V* ss = member(member(sb, "hidden_error_signals"), hids[h]);
      if (!ss) continue;
      const auto at = [&](const char* field) {
        return [&, field] { return "backward.hidden_error_signals." + hids[h] + "." + field; };
      };
      sink_.compare(at("backpropagated_sum"), c_.bsum_h[h], member(ss, "backpropagated_sum"));
      sink_.compare(at("activation_derivative"), c_.ad_h[h], member(ss, "activation_derivative"));
      sink_.compare(at("signal_value"), c_.sig_h[h], member(ss, "signal_value"));
    }
    index_updates();
    const char* name = r_.optimizer_name();
    for (const UpdateRecord& u : r_.updates) {
      const std::string& pid = parameter_id(u);
      const auto found = by_param_.find(pid);
      if (found == by_param_.end()) continue;
      const V& s = *found->second;
      const auto at = [&](const char* field) { return [&, field] { return "updates[" + pid + "]" + field; }; };
      sink_.compare(at(".gradient"), u.gradient, member(&s, "gradient"));
      sink_.compare(at(".update"), u.update, member(&s, "update"));
      sink_.compare(at(".weight_after"), u.weight_after, member(&s, "weight_after"));
      if (!r_.stateful) continue;  // the engine's update has no state_after
      const V* so = member(&s, "optimizer");
      const V* sa = member(so, "state_after");
      const V* sn = member(so, "name");
      if (!sa || !sn || !sn->is_string() || reconcile::text_or_empty(*sn) != name) continue;
      if (std::strcmp(name, "adam") == 0 || std::strcmp(name, "adamw") == 0) {
        sink_.compare(at(".optimizer.state_after.m"), u.state_after.m, member(sa, "m"));
        sink_.compare(at(".optimizer.state_after.v"), u.state_after.v, member(sa, "v"));
      } else if (std::strcmp(name, "sgd_momentum") == 0) {
        sink_.compare(at(".optimizer.state_after.buffer"), u.state_after.buffer, member(sa, "buffer"));
      }
    }
    const auto& order = t_.parameter_order;
    for (std::size_t k = 0; k < order.size(); ++k) {
      sink_.compare([&] { return "parameters_after." + order[k]; }, r_.parameters_after[k],
                    member(member(&s_, "parameters_after"), order[k]));
    }
  }

  void index_updates() {
    const V* su = member(&s_, "updates");
    if (!su || !su->is_array()) return;
    for (const auto& u : *su) {
      const V* pid = member(&u, "parameter_id");
      if (pid && pid->is_string()) by_param_.insert_or_assign(std::string(reconcile::text_or_empty(*pid)), &u);
    }
  }

  void completeness() {
    if (!member(&s_, "batch")) unit_map_complete("forward", c_.fwd, member(&s_, "forward"));
    for (const UpdateRecord& u : r_.updates) {
      if (by_param_.count(parameter_id(u)) == 0) sink_.missing("updates[" + parameter_id(u) + "]");
    }
  }

  // --- The walk: every engine number against the sidecar's number at the same place. path_
  // holds the current path; each level appends its token and cuts it off again.

  // path_ + "." + key for the scope's lifetime.
  class Scope {
   public:
    Scope(std::string& path, std::string_view key) : path_(path), mark_(path.size()) {
      path_ += '.';
      path_ += key;
    }
    Scope(std::string& path, std::size_t index) : path_(path), mark_(path.size()) {
      path_ += '[';
      path_ += std::to_string(index);
      path_ += ']';
    }
    ~Scope() { path_.resize(mark_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::string& path_;
    std::size_t mark_;
  };

  void leaf(std::string_view key, double value, const V* stored) { leaf_value(key, value, member(stored, key)); }
  // The same with the member `key` already found (nullptr: absent).
  void leaf_value(std::string_view key, double value, const V* found) {
    if (!is_number_json(found)) return;
    Scope at(path_, key);
    sink_.compare(path_, value, found);
  }

  void walk_forward(const ForwardValues& f, const V* stored) {
    for_each_unit(f, [&](const std::string& unit, double net, double out) {
      const V* su = object_at(stored, unit);
      if (!su) return;
      Scope at(path_, unit);
      leaf("net", net, su);
      leaf("out", out, su);
    });
  }

  void walk_map(const std::vector<std::string>& ids, const double* values, const V* stored) {
    for (std::size_t i = 0; i < ids.size(); ++i) leaf(ids[i], values[i], stored);
  }

  // {per_output, total} (per_sample entries, post_update_loss after its status).
  void walk_loss(const std::vector<double>& per_output, double total, const V* stored) {
    if (const V* po = object_at(stored, "per_output")) {
      Scope at(path_, "per_output");
      walk_map(t_.unit_order.output, per_output.data(), po);
    }
    leaf("total", total, stored);
  }

  void walk_factors(const Factors& factors, const V* stored) {
    const V* arr = array_at(stored, "factors");
    if (!arr) return;
    Scope at(path_, "factors");
    for (std::size_t i = 0; i < factors.size && i < arr->size(); ++i) {
      const V& entry = (*arr)[i];
      const Factor& factor = factors.items[i];
      if (names_other(entry, "name", std::string_view(factor.name))) continue;
      if (!factor.from.empty() && names_other(entry, "from", factor.from)) continue;
      Scope item(path_, i);
      leaf("value", factor.value, &entry);
    }
  }

  void walk_output_signal(std::size_t u, const V* stored) {
    const auto& outs = t_.unit_order.output;
    const std::size_t n_out = outs.size();
    const bool softmax = t_.loss == receipt::topology::Loss::cross_entropy_softmax;
    if (softmax) {
      walk_factors({{"target_minus_probability", {}, c_.sig_o[u]}}, stored);
    } else {
      walk_factors({{"target_minus_output", {}, c_.tmo[u]}, {"activation_derivative", {}, c_.ad_o[u]}}, stored);
    }
    leaf("signal_value", c_.sig_o[u], stored);
    if (!softmax) return;
    const V* dual = object_at(stored, "dual_form");
    if (!dual) return;
    Scope at(path_, "dual_form");
    if (const V* terms = array_at(dual, "jacobian_terms")) {
      Scope in(path_, "jacobian_terms");
      const double* y = r_.targets();
      for (std::size_t j = 0; j < n_out && j < terms->size(); ++j) {
        const V& term = (*terms)[j];  // the engine's term names nothing to pair by
        Scope item(path_, j);
        walk_factors({{"y_j", {"targets.", outs[j], {}}, y[j]},
                      {"delta_ju_minus_p_u", {}, c_.dual_delta_minus_p[u * n_out + j]}},
                     &term);
        leaf("term_value", c_.dual_term[u * n_out + j], &term);
      }
    }
    leaf("summed_value", c_.dual_sum[u], dual);
  }

  void walk_hidden_signal(std::size_t h, const V* stored) {
    const auto& outs = t_.unit_order.output;
    const std::size_t n_out = outs.size();
    if (const V* arr = array_at(stored, "downstream_contributions")) {
      Scope at(path_, "downstream_contributions");
      const double* params = r_.input->base.parameters_before.data();
      for (std::size_t o = 0; o < n_out && o < arr->size(); ++o) {
        const V& entry = (*arr)[o];
        const std::uint32_t w = r_.index.w_ho[o * r_.index.n_hid + h];
        if (names_other(entry, "from", outs[o]) || names_other(entry, "via_weight", t_.parameter_order[w])) continue;
        Scope item(path_, o);
        leaf("downstream_signal", c_.sig_o[o], &entry);
        leaf("weight_value", params[w], &entry);
        leaf("value", c_.contrib[h * n_out + o], &entry);
      }
    }
    leaf("backpropagated_sum", c_.bsum_h[h], stored);
    leaf("activation_derivative", c_.ad_h[h], stored);
    leaf("signal_value", c_.sig_h[h], stored);
  }

  void walk_backward(const V* stored) {
    if (const V* signals = object_at(stored, "output_error_signals")) {
      Scope at(path_, "output_error_signals");
      for (std::size_t u = 0; u < t_.unit_order.output.size(); ++u) {
        const V* s = object_at(signals, t_.unit_order.output[u]);
        if (!s) continue;
        Scope unit(path_, t_.unit_order.output[u]);
        walk_output_signal(u, s);
      }
    }
    if (const V* signals = object_at(stored, "hidden_error_signals")) {
      Scope at(path_, "hidden_error_signals");
      for (std::size_t h = 0; h < t_.unit_order.hidden.size(); ++h) {
        const V* s = object_at(signals, t_.unit_order.hidden[h]);
        if (!s) continue;
        Scope unit(path_, t_.unit_order.hidden[h]);
        walk_hidden_signal(h, s);
      }
    }
  }

  void walk_batched_loss(const V* stored) {
    if (const V* po = object_at(stored, "per_output")) {
      Scope at(path_, "per_output");
      walk_map(t_.unit_order.output, r_.reduced_loss_per_output.data(), po);
    }
    if (const V* ps = object_at(stored, "per_sample")) {
      Scope at(path_, "per_sample");
      const reconcile::MemberIndex<V> totals(ps);
      for (const std::string& sid : sample_ids_) {
        leaf_value(sid, r_.samples[sample_at_.at(sid)].loss_total, totals.find(sid));
      }
    }
    leaf("total", r_.reduced_loss_total, stored);
  }

  void walk_per_sample(const V* stored) {
    const auto& t = t_;
    const reconcile::MemberIndex<V> entries(stored);
    for (const std::string& sid : sample_ids_) {
      const V* entry = entries.find(sid);
      if (!entry || !entry->is_object()) continue;
      const std::size_t i = sample_at_.at(sid);
      const receipt::engine::Sample& smp = r_.input->batch->samples[i];
      const receipt::engine::SampleRecord& rec = r_.samples[i];
      Scope at(path_, sid);
      if (const V* in = object_at(entry, "inputs")) {
        Scope s(path_, "inputs");
        walk_map(t.unit_order.input, smp.inputs.data(), in);
      }
      if (const V* tg = object_at(entry, "targets")) {
        Scope s(path_, "targets");
        walk_map(t.unit_order.output, smp.targets.data(), tg);
      }
      if (const V* fw = object_at(entry, "forward")) {
        Scope s(path_, "forward");
        walk_forward(rec.forward, fw);
      }
      if (const V* loss = object_at(entry, "loss")) {
        Scope s(path_, "loss");
        walk_loss(rec.loss_per_output, rec.loss_total, loss);
      }
    }
  }

  // The sections in the tree form's order; a section is walked when the sidecar's is an object.
  void walk_sections() {
    const auto section = [&](const char* name) {
      path_ = name;
      return object_at(&s_, name);
    };
    if (const V* s = section("forward")) walk_forward(c_.fwd, s);
    if (const V* s = section("loss")) {
      if (r_.batched()) {
        walk_batched_loss(s);
      } else {
        walk_loss(c_.loss_o, c_.loss_total, s);
      }
    }
    if (const V* s = section("backward")) walk_backward(s);
    if (const V* s = section("parameters_after")) walk_map(t_.parameter_order, r_.parameters_after.data(), s);
    if (const V* s = section("post_update_forward")) walk_forward(r_.post_forward, s);
    if (const V* s = section("post_update_loss")) walk_loss(r_.post_loss_per_output, r_.post_loss_total, s);
    if (r_.batched()) {
      if (const V* s = section("per_sample")) walk_per_sample(s);
    }
  }

  Factors gradient_factors(const UpdateRecord& u) const {
    using receipt::topology::Role;
    if (r_.batched()) return {{"batch_reduced_gradient", {}, u.gradient}};
    const auto& s = r_.index.slots[u.slot];
    const auto& ord = t_.unit_order;
    const double* x = r_.inputs();
    const auto hidden_signal = [](std::string_view unit) -> Spelled {
      return {"backward.hidden_error_signals.", unit, ".signal_value"};
    };
    const auto output_signal = [](std::string_view unit) -> Spelled {
      return {"backward.output_error_signals.", unit, ".signal_value"};
    };
    switch (s.role) {
      case Role::input_to_hidden_weight:
        return {{"hidden_error_signal", hidden_signal(ord.hidden[s.to]), c_.sig_h[s.to]},
                {"upstream_activation", {"inputs.", ord.input[s.from], {}}, x[s.from]}};
      case Role::hidden_to_output_weight:
        return {{"output_error_signal", output_signal(ord.output[s.to]), c_.sig_o[s.to]},
                {"upstream_activation", {"forward.", ord.hidden[s.from], ".out"}, c_.fwd.out_h[s.from]}};
      case Role::hidden_bias: return {{"hidden_error_signal", hidden_signal(ord.hidden[s.from]), c_.sig_h[s.from]}};
      case Role::output_bias: return {{"output_error_signal", output_signal(ord.output[s.from]), c_.sig_o[s.from]}};
    }
    return {};
  }

  void walk_state(const char* key, const receipt::engine::OptimizerState& state, const V* optimizer) {
    const V* s = object_at(optimizer, key);
    if (!s) return;
    Scope at(path_, key);
    if (r_.input->optimizer->name == receipt::engine::OptimizerName::sgd_momentum) {
      leaf("buffer", state.buffer, s);
    } else {
      leaf("m", state.m, s);
      leaf("v", state.v, s);
    }
  }

  void walk_updates() {
    for (const UpdateRecord& u : r_.updates) {
      const auto found = by_param_.find(parameter_id(u));
      if (found == by_param_.end()) continue;
      const V* s = found->second;
      path_ = "updates[" + parameter_id(u) + "]";
      leaf("weight_before", u.weight_before, s);
      if (const V* opt = object_at(s, "optimizer")) {
        Scope at(path_, "optimizer");
        leaf("learning_rate", r_.input->base.learning_rate, opt);
        walk_factors(gradient_factors(u), opt);
        if (r_.stateful) {
          walk_state("state_before", u.state_before, opt);
          walk_state("state_after", u.state_after, opt);
        }
      }
      leaf("gradient", u.gradient, s);
      leaf("update", u.update, s);
      leaf("weight_after", u.weight_after, s);
    }
  }

  const GeneralReceipt& r_;
  const receipt::topology::Topology& t_;
  const receipt::engine::StepCore& c_;
  const V& s_;
  detail::DisagreementSink sink_;
  std::string path_;
  std::unordered_set<std::string_view> forward_units_, output_units_;
  std::vector<std::string> sample_ids_;                       // per_sample's keys, first occurrence order
  std::unordered_map<std::string, std::size_t> sample_at_;    // id -> the sample giving its values
  std::unordered_map<std::string, const V*> by_param_;
};

}  // namespace

std::vector<Disagreement> compare_with_engine(const GeneralReceipt& engine, const ordered_json& sidecar,
                                              reconcile::Tolerance tolerance) {
  return StructDifferential<ordered_json>(engine, sidecar, tolerance).run();
}

std::vector<Disagreement> compare_with_engine(const GeneralReceipt& engine, const reconcile::Json& sidecar,
                                              reconcile::Tolerance tolerance) {
  return StructDifferential<reconcile::Json>(engine, sidecar, tolerance).run();
}

}  // namespace importer
