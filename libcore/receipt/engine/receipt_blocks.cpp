#include "receipt/engine/receipt_blocks.hpp"

#include "receipt/engine/json_object_builder.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;
using topology::Role;

ordered_json fixture_status_json() {
  return ordered_json{{"authoring_state", "engine_generated"},
                      {"verification_state", "engine_reproduced_byte_equal"},
                      {"canonical", true}};
}

ordered_json metadata_json(const std::optional<topology::Metadata>& m) {
  ordered_json out;
  if (!m) {
    out["source"] = "src/general-engine.ts (generalized backprop engine first-run)";
    out["gradient_convention"] = "descent_direction";
    return out;
  }
  out["source"] = m->source;
  if (m->url_reference) out["url_reference"] = *m->url_reference;
  out["gradient_convention"] = m->gradient_convention;
  return out;
}

ordered_json topology_json(const topology::Topology& t) {
  ordered_json out;
  out["layers"] = ordered_json::array({"input", "hidden", "output"});
  out["input_size"] = t.input_size;
  out["hidden_size"] = t.hidden_size;
  out["output_size"] = t.output_size;
  out["unit_order"] = ordered_json{{"input", t.unit_order.input},
                                   {"hidden", t.unit_order.hidden},
                                   {"output", t.unit_order.output}};
  out["parameter_order"] = t.parameter_order;
  ordered_json params = ordered_json::array();
  for (const auto& p : t.parameters) {
    ordered_json j;
    j["id"] = p.id;
    j["role"] = to_string(p.role);
    if (p.from_unit) j["from_unit"] = *p.from_unit;
    if (p.to_unit) j["to_unit"] = *p.to_unit;
    if (p.applies_to_units) j["applies_to_units"] = *p.applies_to_units;
    params.push_back(std::move(j));
  }
  out["parameters"] = std::move(params);
  out["activation_hidden"] = to_string(t.activation_hidden);
  out["activation_output"] = to_string(t.activation_output);
  out["loss"] = to_string(t.loss);
  out["bias_sharing"] = to_string(t.bias_sharing);
  return out;
}

ordered_json value_map_json(const std::vector<std::string>& ids, const double* values) {
  // ids are unique (the topology was validated).
  JsonObjectBuilder out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) out.add(ids[i], values[i]);
  return out.done();
}

ordered_json forward_json(const topology::Topology& t, const ForwardValues& f, const char* status) {
  const auto unit = [](double net, double out) { return JsonObjectBuilder(2).add("net", net).add("out", out).done(); };
  JsonObjectBuilder out(t.unit_order.hidden.size() + t.unit_order.output.size() + 1);
  if (status != nullptr) out.add("status", status);
  for (std::size_t h = 0; h < t.unit_order.hidden.size(); ++h) out.add(t.unit_order.hidden[h], unit(f.net_h[h], f.out_h[h]));
  for (std::size_t o = 0; o < t.unit_order.output.size(); ++o) out.add(t.unit_order.output[o], unit(f.net_o[o], f.out_o[o]));
  return out.done();
}

ordered_json loss_json(const topology::Topology& t, const std::vector<double>& per_output, double total) {
  return ordered_json{{"per_output", value_map_json(t.unit_order.output, per_output.data())}, {"total", total}};
}

ordered_json backward_json(const topology::Topology& t, const topology::TopologyIndex& ix, const StepCore& c,
                           const double* params, const double* targets) {
  const auto& outs = t.unit_order.output;
  const std::size_t n_out = outs.size();
  ordered_json out_signals = ordered_json::object();
  for (std::size_t u = 0; u < n_out; ++u) {
    ordered_json s;
    if (t.loss == topology::Loss::cross_entropy_softmax) {
      s["factors"] = ordered_json::array({ordered_json{{"name", "target_minus_probability"}, {"value", c.sig_o[u]}}});
      s["product_order"] = "left_to_right";
      s["signal_value"] = c.sig_o[u];
      ordered_json terms = ordered_json::array();
      for (std::size_t j = 0; j < n_out; ++j) {
        ordered_json term;
        term["target_unit"] = outs[j];
        term["factors"] = ordered_json::array(
            {ordered_json{{"name", "y_j"}, {"from", "targets." + outs[j]}, {"value", targets[j]}},
             ordered_json{{"name", "delta_ju_minus_p_u"}, {"value", c.dual_delta_minus_p[u * n_out + j]}}});
        term["term_value"] = c.dual_term[u * n_out + j];
        terms.push_back(std::move(term));
      }
      s["dual_form"] = ordered_json{{"jacobian_terms", std::move(terms)},
                                    {"product_order", "left_to_right"},
                                    {"summation_order", outs},
                                    {"summed_value", c.dual_sum[u]}};
    } else {
      s["factors"] = ordered_json::array({ordered_json{{"name", "target_minus_output"}, {"value", c.tmo[u]}},
                                          ordered_json{{"name", "activation_derivative"}, {"value", c.ad_o[u]}}});
      s["product_order"] = "left_to_right";
      s["signal_value"] = c.sig_o[u];
    }
    out_signals[outs[u]] = std::move(s);
  }
  ordered_json hid_signals = ordered_json::object();
  for (std::size_t h = 0; h < t.unit_order.hidden.size(); ++h) {
    ordered_json contribs = ordered_json::array();
    contribs.get_ref<ordered_json::array_t&>().reserve(n_out);
    for (std::size_t o = 0; o < n_out; ++o) {
      const std::uint32_t w = ix.w_ho[o * ix.n_hid + h];
      contribs.push_back(JsonObjectBuilder(5)
                             .add("from", outs[o])
                             .add("downstream_signal", c.sig_o[o])
                             .add("via_weight", t.parameter_order[w])
                             .add("weight_value", params[w])
                             .add("value", c.contrib[h * n_out + o])
                             .done());
    }
    ordered_json s;
    s["downstream_contributions"] = std::move(contribs);
    s["summation_order"] = outs;
    s["backpropagated_sum"] = c.bsum_h[h];
    s["activation_derivative"] = c.ad_h[h];
    s["product_order"] = "left_to_right";
    s["signal_value"] = c.sig_h[h];
    hid_signals[t.unit_order.hidden[h]] = std::move(s);
  }
  return ordered_json{{"output_error_signals", std::move(out_signals)},
                      {"hidden_error_signals", std::move(hid_signals)}};
}

ordered_json gradient_factors_json(const topology::Topology& t, const topology::TopologyIndex& ix, const StepCore& c,
                                   const double* x, std::size_t k) {
  const topology::ParameterSlot& s = ix.slots[k];
  const auto factor = [](const char* name, std::string from, double v) {
    return JsonObjectBuilder(3).add("name", name).add("from", std::move(from)).add("value", v).done();
  };
  const auto signal = [&](const char* name, const char* layer, const std::string& unit, double v) {
    return factor(name, std::string("backward.") + layer + "_error_signals." + unit + ".signal_value", v);
  };
  ordered_json out = ordered_json::array();
  auto& items = out.get_ref<ordered_json::array_t&>();
  items.reserve(2);
  switch (s.role) {
    case Role::input_to_hidden_weight:
      items.push_back(signal("hidden_error_signal", "hidden", t.unit_order.hidden[s.to], c.sig_h[s.to]));
      items.push_back(factor("upstream_activation", "inputs." + t.unit_order.input[s.from], x[s.from]));
      break;
    case Role::hidden_to_output_weight:
      items.push_back(signal("output_error_signal", "output", t.unit_order.output[s.to], c.sig_o[s.to]));
      items.push_back(factor("upstream_activation", "forward." + t.unit_order.hidden[s.from] + ".out", c.fwd.out_h[s.from]));
      break;
    case Role::hidden_bias:
      items.push_back(signal("hidden_error_signal", "hidden", t.unit_order.hidden[s.from], c.sig_h[s.from]));
      break;
    case Role::output_bias:
      items.push_back(signal("output_error_signal", "output", t.unit_order.output[s.from], c.sig_o[s.from]));
      break;
  }
  return out;
}

ordered_json update_json(const topology::Topology& t, const topology::TopologyIndex& ix, std::size_t k,
                         double weight_before, ordered_json optimizer, double gradient, double update,
                         double weight_after) {
  const topology::ParameterSlot& s = ix.slots[k];
  const topology::Parameter& p = t.parameters[k];
  JsonObjectBuilder u(11);
  u.add("parameter_id", p.id);
  if (s.role == Role::hidden_bias || s.role == Role::output_bias) {
    const std::string& unit = (*p.applies_to_units)[0];
    u.add("kind", "bias").add("layer_edge", "bias_to_layer").add("parameter_role", to_string(s.role));
    u.add("from_unit", unit).add("to_unit", unit);
  } else {
    u.add("kind", "weight");
    u.add("layer_edge", s.role == Role::input_to_hidden_weight ? "input_to_hidden" : "hidden_to_output");
    u.add("parameter_role", *p.from_unit + "_to_" + *p.to_unit);
    u.add("from_unit", *p.from_unit).add("to_unit", *p.to_unit);
  }
  u.add("weight_before", weight_before);
  u.add("optimizer", std::move(optimizer));
  u.add("gradient", gradient).add("update", update).add("weight_after", weight_after);
  return u.done();
}

}  // namespace receipt::engine
