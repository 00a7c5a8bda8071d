// See differential_tree.hpp.
#include "differential_tree.hpp"

#include "importer/differential_sink.hpp"
#include "reconcile/json_access.hpp"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace importer::oracle {

using nlohmann::ordered_json;
using reconcile::member;  // never throws: nullptr for a missing key or a non-object

namespace {

bool is_number(const ordered_json* v) { return v && v->is_number(); }

class Differential {
 public:
  Differential(const ordered_json& engine, const ordered_json& sidecar, reconcile::Tolerance tolerance)
      : e_(engine), s_(sidecar), sink_(tolerance) {}

  std::vector<Disagreement> run() {
    if (member(&s_, "batch")) {
      batched_samples();
    } else {
      for (const auto& [unit, eu] : items(member(&e_, "forward"))) {
        const ordered_json* su = member(member(&s_, "forward"), unit);
        if (!su) continue;
        compare("forward." + unit + ".net", member(&eu, "net"), member(su, "net"));
        compare("forward." + unit + ".out", member(&eu, "out"), member(su, "out"));
      }
    }
    backward_updates_parameters();
    sink_.set_extended();
    completeness();
    for (const char* section : {"forward", "loss", "backward", "parameters_after", "post_update_forward",
                                "post_update_loss", "per_sample"}) {
      walk(member(&e_, section), member(&s_, section), section);
    }
    walk_updates();
    return sink_.take();
  }

 private:
  // An object member, its key not copied.
  struct Item {
    const std::string& key;
    const ordered_json& value;
  };
  // Object members in document order (empty for anything else).
  static std::vector<Item> items(const ordered_json* obj) {
    std::vector<Item> out;
    if (!obj || !obj->is_object()) return out;
    out.reserve(obj->size());
    for (auto it = obj->begin(); it != obj->end(); ++it) out.push_back({it.key(), it.value()});
    return out;
  }

  void compare(std::string_view path, const ordered_json* engine, const ordered_json* stored) {
    if (!is_number(engine)) return;
    sink_.compare(path, engine->get<double>(), stored);
  }

  void missing(std::string_view path) { sink_.missing(path); }

  // A map of units {id: {net, out}}: every engine unit present with both numbers, no extra units.
  void unit_map_complete(const std::string& base, const ordered_json* engine, const ordered_json* stored) {
    std::unordered_set<std::string> engine_units;
    for (const auto& [unit, eu] : items(engine)) {
      engine_units.insert(unit);
      const ordered_json* su = member(stored, unit);
      if (!su || su->is_null()) {
        missing(base + "." + unit);
        continue;
      }
      for (const char* field : {"net", "out"}) {
        const std::string path = base + "." + unit + "." + field;
        if (!is_number(member(su, field))) {
          missing(path);
        } else {
          compare(path, member(&eu, field), member(su, field));
        }
      }
    }
    for (const auto& [unit, su] : items(stored)) {
      if (engine_units.count(unit) == 0) missing(base + "." + unit);
    }
  }

  void number_map_complete(const std::string& base, const ordered_json* engine, const ordered_json* stored) {
    std::unordered_set<std::string> keys;
    for (const auto& [id, ev] : items(engine)) {
      keys.insert(id);
      const ordered_json* sv = member(stored, id);
      if (!is_number(sv)) {
        missing(base + "." + id);
      } else {
        compare(base + "." + id, &ev, sv);
      }
    }
    for (const auto& [id, sv] : items(stored)) {
      if (keys.count(id) == 0) missing(base + "." + id);
    }
  }

  void batched_samples() {
    const ordered_json* order = member(member(&s_, "batch"), "sample_order");
    if (order && order->is_array()) {
      for (const auto& sid_json : *order) {
        if (!sid_json.is_string()) continue;
        const std::string& sid = sid_json.get_ref<const std::string&>();
        const ordered_json* es = member(member(&e_, "per_sample"), sid);
        const ordered_json* ss = member(member(&s_, "per_sample"), sid);
        if (!es || !ss) continue;
        const std::string base = "per_sample." + sid;
        unit_map_complete(base + ".forward", member(es, "forward"), member(ss, "forward"));
        number_map_complete(base + ".loss.per_output", member(member(es, "loss"), "per_output"),
                            member(member(ss, "loss"), "per_output"));
        if (!is_number(member(member(ss, "loss"), "total"))) {
          missing(base + ".loss.total");
        } else {
          compare(base + ".loss.total", member(member(es, "loss"), "total"), member(member(ss, "loss"), "total"));
        }
      }
    }
    for (const auto& [unit, ev] : items(member(member(&e_, "loss"), "per_output"))) {
      compare("loss.per_output." + unit, &ev, member(member(member(&s_, "loss"), "per_output"), unit));
    }
    compare("loss.total", member(member(&e_, "loss"), "total"), member(member(&s_, "loss"), "total"));
  }

  void backward_updates_parameters() {
    const ordered_json* eb = member(&e_, "backward");
    const ordered_json* sb = member(&s_, "backward");
    for (const auto& [unit, es] : items(member(eb, "output_error_signals"))) {
      const ordered_json* ss = member(member(sb, "output_error_signals"), unit);
      if (!ss) continue;
      compare("backward.output_error_signals." + unit + ".signal_value", member(&es, "signal_value"),
              member(ss, "signal_value"));
    }
    for (const auto& [unit, es] : items(member(eb, "hidden_error_signals"))) {
      const ordered_json* ss = member(member(sb, "hidden_error_signals"), unit);
      if (!ss) continue;
      for (const char* field : {"backpropagated_sum", "activation_derivative", "signal_value"}) {
        compare("backward.hidden_error_signals." + unit + "." + field, member(&es, field), member(ss, field));
      }
    }
    index_updates();
    if (const ordered_json* eu = member(&e_, "updates"); eu && eu->is_array()) {
      for (const auto& e : *eu) {
        const std::string pid = member(&e, "parameter_id")->get<std::string>();
        const auto found = by_param_.find(pid);
        if (found == by_param_.end()) continue;
        const ordered_json& s = *found->second;
        const std::string base = "updates[" + pid + "]";
        for (const char* field : {"gradient", "update", "weight_after"}) {
          compare(base + "." + field, member(&e, field), member(&s, field));
        }
        const ordered_json* eo = member(&e, "optimizer");
        const ordered_json* so = member(&s, "optimizer");
        const ordered_json* ea = member(eo, "state_after");
        const ordered_json* sa = member(so, "state_after");
        const ordered_json* en = member(eo, "name");
        const ordered_json* sn = member(so, "name");
        if (!ea || !sa || !en || !sn || *en != *sn) continue;
        if (*en == "adam" || *en == "adamw") {
          compare(base + ".optimizer.state_after.m", member(ea, "m"), member(sa, "m"));
          compare(base + ".optimizer.state_after.v", member(ea, "v"), member(sa, "v"));
        } else if (*en == "sgd_momentum") {
          compare(base + ".optimizer.state_after.buffer", member(ea, "buffer"), member(sa, "buffer"));
        }
      }
    }
    for (const auto& [pid, ev] : items(member(&e_, "parameters_after"))) {
      compare("parameters_after." + pid, &ev, member(member(&s_, "parameters_after"), pid));
    }
  }

  void index_updates() {
    const ordered_json* su = member(&s_, "updates");
    if (!su || !su->is_array()) return;
    for (const auto& u : *su) {
      const ordered_json* pid = member(&u, "parameter_id");
      if (pid && pid->is_string()) by_param_.insert_or_assign(pid->get<std::string>(), &u);
    }
  }

  // Deliberate difference: the forward map and updates[] must cover what the engine recomputed.
  void completeness() {
    if (!member(&s_, "batch")) unit_map_complete("forward", member(&e_, "forward"), member(&s_, "forward"));
    if (const ordered_json* eu = member(&e_, "updates"); eu && eu->is_array()) {
      for (const auto& e : *eu) {
        const std::string pid = member(&e, "parameter_id")->get<std::string>();
        if (by_param_.count(pid) == 0) missing("updates[" + pid + "]");
      }
    }
  }

  // Every number at the same place in both documents. Array elements pair by index, and only when
  // the entries name the same thing (factor name, contribution source).
  void walk(const ordered_json* engine, const ordered_json* stored, const std::string& path) {
    path_ = path;
    walk_at(engine, stored);
  }

  // walk() with the path in path_: each level appends its token and cuts it off again, so no
  // level allocates a path of its own.
  void walk_at(const ordered_json* engine, const ordered_json* stored) {
    if (!engine || !stored) return;
    const std::size_t mark = path_.size();
    if (engine->is_number()) {
      compare(path_, engine, stored);
    } else if (engine->is_object() && stored->is_object()) {
      for (auto it = engine->begin(); it != engine->end(); ++it) {
        path_ += '.';
        path_ += it.key();
        walk_at(&it.value(), member(stored, it.key()));
        path_.resize(mark);
      }
    } else if (engine->is_array() && stored->is_array()) {
      for (std::size_t i = 0; i < engine->size() && i < stored->size(); ++i) {
        const ordered_json& e = (*engine)[i];
        const ordered_json& s = (*stored)[i];
        bool same_entry = true;
        for (const char* id : {"name", "from", "via_weight", "parameter_id"}) {
          const ordered_json* a = member(&e, id);
          const ordered_json* b = member(&s, id);
          if (a && b && *a != *b) same_entry = false;
        }
        if (!same_entry) continue;
        path_ += '[';
        path_ += std::to_string(i);
        path_ += ']';
        walk_at(&e, &s);
        path_.resize(mark);
      }
    }
  }

  void walk_updates() {
    const ordered_json* eu = member(&e_, "updates");
    if (!eu || !eu->is_array()) return;
    for (const auto& e : *eu) {
      const std::string pid = member(&e, "parameter_id")->get<std::string>();
      const auto found = by_param_.find(pid);
      if (found != by_param_.end()) walk(&e, found->second, "updates[" + pid + "]");
    }
  }

  const ordered_json& e_;
  const ordered_json& s_;
  detail::DisagreementSink sink_;
  std::string path_;
  std::unordered_map<std::string, const ordered_json*> by_param_;
};

}  // namespace

std::vector<Disagreement> compare_with_engine(const ordered_json& engine, const ordered_json& sidecar,
                                              reconcile::Tolerance tolerance) {
  return Differential(engine, sidecar, tolerance).run();
}

}  // namespace importer::oracle
