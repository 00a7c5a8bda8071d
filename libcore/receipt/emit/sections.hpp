#pragma once
// Section writers of the two receipt layouts (v0.1.0 Mazur, v0.2.0+ general). The general ones,
// and the pieces both layouts share, are templates over the receipt's value type (an
// ordered_json, or a receipt read for the rules: object_writer.hpp); Mazur receipts are written
// from ordered_json only. Internal to receipt::emit (and to reconcile's canonical bytes);
// emit_receipt.cpp dispatches between the layouts.
#include <string>
#include <string_view>
#include <vector>

#include "receipt/emit/object_writer.hpp"

namespace receipt::emit {

[[nodiscard]] Status write_mazur_receipt(ObjectWriter& w, const ojson& r);

// Pieces both layouts share (same bytes in every version).
template <class V>
[[nodiscard]] Status write_forward_unit(ObjectWriter& w, const V& u) {
  return w.object(u, general::forward_unit);
}

template <class V>
[[nodiscard]] Status write_named_factors(ObjectWriter& w, const V& factors) {
  return w.array(factors, [&w](const V& f) { return w.object(f, general::named_factor); });
}

template <class V>
[[nodiscard]] Status write_output_error_signal(ObjectWriter& w, const V& s) {
  return w.object(s, general::output_error_signal, [&w](std::string_view key, const V& v) -> Status {
    if (key == "factors") return write_named_factors(w, v);
    // dual_form
    return w.object(v, general::dual_form, [&w](std::string_view, const V& terms) {
      return w.array(terms, [&w](const V& t) {
        return w.object(t, general::jacobian_term,
                        [&w](std::string_view, const V& f) { return write_named_factors(w, f); });
      });
    });
  });
}

template <class V>
[[nodiscard]] Status write_hidden_error_signal(ObjectWriter& w, const V& s) {
  return w.object(s, general::hidden_error_signal, [&w](std::string_view, const V& contributions) {
    return w.array(contributions, [&w](const V& c) { return w.object(c, general::downstream_contribution); });
  });
}

// Policy blocks of the general layout (also used by the typed writer, general_receipt_writer.cpp).
template <class V>
[[nodiscard]] Status write_numeric_policy(ObjectWriter& w, const V& policy) {
  return w.object(policy, general::numeric_policy, [&w](std::string_view k, const V& x) -> Status {
    if (k == "tolerance") {
      if (x.is_number()) return w.scalar(x, FieldKind::number);
      return w.object(x, general::tolerance);
    }
    return w.object(x, general::byte_output);
  });
}

template <class V>
[[nodiscard]] Status write_bias_policy(ObjectWriter& w, const V& policy) {
  return w.object(policy, general::bias_policy);
}

namespace general_sections {

// Receipts v0.2.0 and later: maps iterate the receipt's own declared orders (topology.unit_order,
// topology.parameter_order, batch.sample_order), read where the receipt holds them.
template <class V>
struct Orders {
  const V* input = nullptr;
  const V* output = nullptr;
  std::vector<const V*> forward;  // hidden units, then output units
  std::vector<const V*> hidden;
  const V* parameters = nullptr;
  const V* samples = nullptr;  // batch.sample_order when the receipt has a batch
};

// Reads the declared orders; topology has already been written, and so checked (unit_order's
// three lists and parameter_order are arrays of strings), by the time any map needs them.
template <class V>
Orders<V> orders_of(const V& r) {
  Orders<V> o;
  const V& topology = *member_of(r, "topology");
  const V& units = *member_of(topology, "unit_order");
  o.input = member_of(units, "input");
  o.output = member_of(units, "output");
  const V& hidden = *member_of(units, "hidden");
  o.forward.reserve(hidden.size() + o.output->size());
  for (const V& id : hidden) o.forward.push_back(&id);
  o.hidden = o.forward;
  for (const V& id : *o.output) o.forward.push_back(&id);
  o.parameters = member_of(topology, "parameter_order");
  if (const V* b = member_of(r, "batch"); b != nullptr && b->is_object()) o.samples = member_of(*b, "sample_order");
  return o;
}

template <class V>
Status write_forward_map(ObjectWriter& w, const V& forward, const Orders<V>& o) {
  return w.ordered_map(forward, o.forward, [&w](const V& u) { return write_forward_unit(w, u); });
}

template <class V>
Status write_loss(ObjectWriter& w, const V& loss, const Orders<V>& o) {
  return w.object(loss, general::loss, [&](std::string_view key, const V& v) -> Status {
    if (key == "per_output") return w.number_map(v, *o.output);
    return w.number_map(v, *o.samples);  // per_sample: only reached when a batch exists
  });
}

template <class V>
Status write_per_sample(ObjectWriter& w, const V& per_sample, const Orders<V>& o) {
  return w.ordered_map(per_sample, *o.samples, [&](const V& entry) {
    return w.object(entry, general::per_sample_entry, [&](std::string_view key, const V& v) -> Status {
      if (key == "inputs") return w.number_map(v, *o.input);
      if (key == "targets") return w.number_map(v, *o.output);
      if (key == "forward") return write_forward_map(w, v, o);
      return w.object(v, general::per_sample_loss,
                      [&](std::string_view, const V& per_output) { return w.number_map(per_output, *o.output); });
    });
  });
}

template <class V>
Status write_post_update_forward(ObjectWriter& w, const V& p, const Orders<V>& o) {
  if (!p.is_object()) return w.error(std::string("expected an object, got ") + type_name(p));
  auto& out = w.out();
  out.begin_object();
  const V* status = member_of(p, "status");
  if (status == nullptr) return w.error("missing required field \"status\"", "status");
  {
    ObjectWriter::Step step(w, std::string_view("status"));
    out.program_key("status");
    if (auto s = w.scalar(*status, FieldKind::string); !s) return s;
  }
  // Units are read from p.units when present, else from p itself (the flat wire shape).
  const V* nested_units = member_of(p, "units");
  for (const V* id : o.forward) {
    if (!id->is_string()) return w.error("unit_order contains " + std::string(type_name(*id)) + ", not an id");
    const std::string_view key = text_of(*id);
    const V* unit = nullptr;
    if (nested_units != nullptr && nested_units->is_object()) {
      if (const V* u = member_of(*nested_units, key); u != nullptr && !u->is_null()) unit = u;
    }
    if (unit == nullptr) unit = member_of(p, key);
    if (unit == nullptr) return w.error("missing unit \"" + std::string(key) + "\", which unit_order lists", key);
    ObjectWriter::Step step(w, key);
    out.key(key);
    if (auto s = write_forward_unit(w, *unit); !s) return s;
  }
  out.end_object();
  return {};
}

template <class V>
Status write_optimizer_state(ObjectWriter& w, const V& s) {
  if (s.is_object()) {
    const V* buffer = member_of(s, "buffer");
    const V* m = member_of(s, "m");
    const V* v = member_of(s, "v");
    if (buffer != nullptr && buffer->is_number() && m == nullptr && v == nullptr) {
      return w.object(s, general::momentum_state);
    }
    if (m != nullptr && m->is_number() && v != nullptr && v->is_number()) return w.object(s, general::adam_state);
  }
  return w.error("optimizer state is neither {m, v} (Adam) nor {buffer} (momentum)");
}

template <class V>
Status write_updates(ObjectWriter& w, const V& updates) {
  return w.array(updates, [&w](const V& u) {
    return w.object(u, general::update, [&w](std::string_view, const V& optimizer) {
      return w.object(optimizer, general::optimizer, [&w](std::string_view key, const V& v) -> Status {
        if (key == "factors") return write_named_factors(w, v);
        return write_optimizer_state(w, v);
      });
    });
  });
}

template <class V>
Status write_backward(ObjectWriter& w, const V& b, const Orders<V>& o) {
  return w.object(b, general::backward, [&](std::string_view key, const V& signals) -> Status {
    if (key == "output_error_signals") {
      return w.ordered_map(signals, *o.output, [&w](const V& s) { return write_output_error_signal(w, s); });
    }
    return w.ordered_map(signals, o.hidden, [&w](const V& s) { return write_hidden_error_signal(w, s); });
  });
}

template <class V>
Status write_topology(ObjectWriter& w, const V& t) {
  return w.object(t, general::topology, [&w](std::string_view key, const V& v) -> Status {
    if (key == "unit_order") return w.object(v, general::unit_order);
    return w.array(v, [&w](const V& p) { return w.object(p, general::topology_parameter); });
  });
}

template <class V>
Status write_attestor(ObjectWriter& w, const V& a) {
  return w.object(a, general::attestor, [&w](std::string_view key, const V& v) -> Status {
    if (key == "differential_tolerance") return w.object(v, general::tolerance);
    if (key == "import_provenance") return w.object(v, general::import_provenance);
    return w.object(v, general::attestor_identity);
  });
}

}  // namespace general_sections

template <class V>
[[nodiscard]] Status write_general_receipt(ObjectWriter& w, const V& r) {
  namespace g = general_sections;
  if (!r.is_object()) return w.error(std::string("expected a receipt object, got ") + type_name(r));
  w.set_has_batch(member_of(r, "batch") != nullptr);
  g::Orders<V> o;
  bool have_orders = false;
  return w.object(r, general::receipt, [&](std::string_view key, const V& v) -> Status {
    if (key == "fixture_status") return w.object(v, general::fixture_status);
    if (key == "source_framework") {
      return w.object(v, general::source_framework,
                      [&w](std::string_view, const V& x) { return w.object(x, general::extractor); });
    }
    if (key == "attestor") return g::write_attestor(w, v);
    if (key == "metadata") return w.object(v, general::metadata);
    if (key == "numeric_policy") return write_numeric_policy(w, v);
    if (key == "bias_policy") return write_bias_policy(w, v);
    if (key == "topology") {
      if (auto s = g::write_topology(w, v); !s) return s;
      o = g::orders_of(r);
      have_orders = true;
      return {};
    }
    if (key == "optimizer_config") return w.object(v, general::optimizer_config);
    if (key == "batch") return w.object(v, general::batch);
    if (!have_orders) return w.error("internal: maps reached before topology");
    if (key == "inputs") return w.number_map(v, *o.input);
    if (key == "targets") return w.number_map(v, *o.output);
    if (key == "parameters_before" || key == "parameters_after") return w.number_map(v, *o.parameters);
    if (key == "per_sample" || key == "loss") {
      if (o.samples == nullptr && member_of(r, "batch") != nullptr) return w.error("batch has no sample_order");
      if (key == "per_sample") return g::write_per_sample(w, v, o);
      return g::write_loss(w, v, o);
    }
    if (key == "forward") return g::write_forward_map(w, v, o);
    if (key == "backward") return g::write_backward(w, v, o);
    if (key == "updates") return g::write_updates(w, v);
    if (key == "post_update_forward") return g::write_post_update_forward(w, v, o);
    return w.object(v, general::post_update_loss,
                    [&](std::string_view, const V& per_output) { return w.number_map(per_output, *o.output); });
  });
}

}  // namespace receipt::emit
