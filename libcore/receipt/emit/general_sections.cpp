// Receipts v0.2.0 and later: maps iterate the receipt's own declared orders
// (topology.unit_order, topology.parameter_order, batch.sample_order).
#include "common/json_input.hpp"
#include "receipt/emit/sections.hpp"

namespace receipt::emit {
namespace {

struct Orders {
  ojson input = ojson::array();
  ojson output = ojson::array();
  ojson forward = ojson::array();  // hidden units, then output units
  ojson parameters = ojson::array();
  const ojson* samples = nullptr;  // batch.sample_order when the receipt has a batch
};

// Reads the declared orders; topology has already been written (and so checked)
// by the time any map needs them.
Orders orders_of(const ojson& r) {
  Orders o;
  const ojson& topology = r.at("topology");
  const ojson& units = topology.at("unit_order");
  o.input = units.at("input");
  o.output = units.at("output");
  for (const auto& id : units.at("hidden")) o.forward.push_back(id);
  for (const auto& id : units.at("output")) o.forward.push_back(id);
  o.parameters = topology.at("parameter_order");
  if (const auto b = r.find("batch"); b != r.end() && b->is_object()) {
    if (const auto s = b->find("sample_order"); s != b->end()) o.samples = &*s;
  }
  return o;
}

Status write_forward_map(ObjectWriter& w, const ojson& forward, const Orders& o) {
  return w.ordered_map(forward, o.forward, [&w](const ojson& u) { return write_forward_unit(w, u); });
}

Status write_loss(ObjectWriter& w, const ojson& loss, const Orders& o) {
  return w.object(loss, general::loss, [&](std::string_view key, const ojson& v) -> Status {
    if (key == "per_output") return w.number_map(v, o.output);
    return w.number_map(v, *o.samples);  // per_sample: only reached when a batch exists
  });
}

Status write_per_sample(ObjectWriter& w, const ojson& per_sample, const Orders& o) {
  return w.ordered_map(per_sample, *o.samples, [&](const ojson& entry) {
    return w.object(entry, general::per_sample_entry, [&](std::string_view key, const ojson& v) -> Status {
      if (key == "inputs") return w.number_map(v, o.input);
      if (key == "targets") return w.number_map(v, o.output);
      if (key == "forward") return write_forward_map(w, v, o);
      return w.object(v, general::per_sample_loss,
                      [&](std::string_view, const ojson& per_output) { return w.number_map(per_output, o.output); });
    });
  });
}

Status write_post_update_forward(ObjectWriter& w, const ojson& p, const Orders& o) {
  if (!p.is_object()) return w.error(std::string("expected an object, got ") + type_name(p));
  auto& out = w.out();
  out.begin_object();
  const auto status = p.find("status");
  if (status == p.end()) return w.error("missing required field \"status\"", "status");
  {
    ObjectWriter::Step step(w, std::string_view("status"));
    out.key("status");
    if (auto s = w.scalar(*status, FieldKind::string); !s) return s;
  }
  // Units are read from p.units when present, else from p itself (the flat wire shape).
  const auto nested_units = p.find("units");
  for (const ojson& id : o.forward) {
    if (!id.is_string()) return w.error("unit_order contains " + std::string(type_name(id)) + ", not an id");
    const std::string& key = id.get_ref<const std::string&>();
    const ojson* unit = nullptr;
    if (nested_units != p.end() && nested_units->is_object()) {
      if (auto u = nested_units->find(key); u != nested_units->end() && !u->is_null()) unit = &*u;
    }
    if (unit == nullptr) {
      if (auto u = p.find(key); u != p.end()) unit = &*u;
    }
    if (unit == nullptr) return w.error("missing unit \"" + key + "\", which unit_order lists", key);
    ObjectWriter::Step step(w, std::string_view(key));
    out.key(key);
    if (auto s = write_forward_unit(w, *unit); !s) return s;
  }
  out.end_object();
  return {};
}

Status write_optimizer_state(ObjectWriter& w, const ojson& s) {
  if (s.is_object()) {
    const auto buffer = s.find("buffer"), m = s.find("m"), v = s.find("v");
    if (buffer != s.end() && buffer->is_number() && m == s.end() && v == s.end()) {
      return w.object(s, general::momentum_state);
    }
    if (m != s.end() && m->is_number() && v != s.end() && v->is_number()) return w.object(s, general::adam_state);
  }
  return w.error("optimizer state is neither {m, v} (Adam) nor {buffer} (momentum)");
}

Status write_updates(ObjectWriter& w, const ojson& updates) {
  return w.array(updates, [&w](const ojson& u) {
    return w.object(u, general::update, [&w](std::string_view, const ojson& optimizer) {
      return w.object(optimizer, general::optimizer, [&w](std::string_view key, const ojson& v) -> Status {
        if (key == "factors") return write_named_factors(w, v);
        return write_optimizer_state(w, v);
      });
    });
  });
}

Status write_backward(ObjectWriter& w, const ojson& b, const Orders& o) {
  return w.object(b, general::backward, [&](std::string_view key, const ojson& signals) -> Status {
    if (key == "output_error_signals") {
      return w.ordered_map(signals, o.output, [&w](const ojson& s) { return write_output_error_signal(w, s); });
    }
    ojson hidden = ojson::array();
    for (std::size_t i = 0; i + o.output.size() < o.forward.size(); ++i) hidden.push_back(o.forward[i]);
    return w.ordered_map(signals, hidden, [&w](const ojson& s) { return write_hidden_error_signal(w, s); });
  });
}

Status write_topology(ObjectWriter& w, const ojson& t) {
  return w.object(t, general::topology, [&w](std::string_view key, const ojson& v) -> Status {
    if (key == "unit_order") return w.object(v, general::unit_order);
    return w.array(v, [&w](const ojson& p) { return w.object(p, general::topology_parameter); });
  });
}

Status write_attestor(ObjectWriter& w, const ojson& a) {
  return w.object(a, general::attestor, [&w](std::string_view key, const ojson& v) -> Status {
    if (key == "differential_tolerance") return w.object(v, general::tolerance);
    if (key == "import_provenance") return w.object(v, general::import_provenance);
    return w.object(v, general::attestor_identity);
  });
}

}  // namespace

Status write_numeric_policy(ObjectWriter& w, const ojson& policy) {
  return w.object(policy, general::numeric_policy, [&w](std::string_view k, const ojson& x) -> Status {
    if (k == "tolerance") {
      if (x.is_number()) return w.scalar(x, FieldKind::number);
      return w.object(x, general::tolerance);
    }
    return w.object(x, general::byte_output);
  });
}

Status write_bias_policy(ObjectWriter& w, const ojson& policy) { return w.object(policy, general::bias_policy); }

Status write_general_receipt(ObjectWriter& w, const ojson& r) {
  if (!r.is_object()) return w.error(std::string("expected a receipt object, got ") + type_name(r));
  const auto batch = r.find("batch");
  w.set_has_batch(batch != r.end());
  Orders o;
  bool have_orders = false;
  return w.object(r, general::receipt, [&](std::string_view key, const ojson& v) -> Status {
    if (key == "fixture_status") return w.object(v, general::fixture_status);
    if (key == "source_framework") {
      return w.object(v, general::source_framework,
                      [&w](std::string_view, const ojson& x) { return w.object(x, general::extractor); });
    }
    if (key == "attestor") return write_attestor(w, v);
    if (key == "metadata") return w.object(v, general::metadata);
    if (key == "numeric_policy") return write_numeric_policy(w, v);
    if (key == "bias_policy") return write_bias_policy(w, v);
    if (key == "topology") {
      if (auto s = write_topology(w, v); !s) return s;
      o = orders_of(r);
      have_orders = true;
      return {};
    }
    if (key == "optimizer_config") return w.object(v, general::optimizer_config);
    if (key == "batch") return w.object(v, general::batch);
    if (!have_orders) return w.error("internal: maps reached before topology");
    if (key == "inputs") return w.number_map(v, o.input);
    if (key == "targets") return w.number_map(v, o.output);
    if (key == "parameters_before" || key == "parameters_after") return w.number_map(v, o.parameters);
    if (key == "per_sample" || key == "loss") {
      if (o.samples == nullptr && r.find("batch") != r.end()) {
        return w.error("batch has no sample_order");
      }
      if (key == "per_sample") return write_per_sample(w, v, o);
      return write_loss(w, v, o);
    }
    if (key == "forward") return write_forward_map(w, v, o);
    if (key == "backward") return write_backward(w, v, o);
    if (key == "updates") return write_updates(w, v);
    if (key == "post_update_forward") return write_post_update_forward(w, v, o);
    return w.object(v, general::post_update_loss,
                    [&](std::string_view, const ojson& per_output) { return w.number_map(per_output, o.output); });
  });
}

}  // namespace receipt::emit
