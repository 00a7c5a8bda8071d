#include "receipt/engine/receipt_blocks.hpp"

#include <optional>

#include "receipt/engine/json_object_builder.hpp"
#include "receipt/layout/fields.hpp"

namespace receipt::engine {

using layout::slot;
using namespace layout::tables;
using nlohmann::ordered_json;
using topology::Role;

namespace {

// An object with Table's fields in the table's order (receipt/layout/fields.hpp states it once):
// value(field) gives the value of field `field()` or nullopt to leave it out. The switch in each
// caller is on a compile-time constant, so this costs what the hand-ordered adds did.
template <const auto& Table, class Value>
ordered_json object_of(Value&& value) {
  JsonObjectBuilder out(Table.size());
  layout::for_each_field<Table>([&](auto field) {
    std::optional<ordered_json> v = value(field);
    if (v) out.add(std::string(Table[field()].key), std::move(*v));
  });
  return out.done();
}

// A factor of a product: {name, from?, value}.
ordered_json named_factor(const char* name, std::optional<std::string> from, double v) {
  return object_of<kNamedFactor>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kNamedFactor;
    switch (field()) {
      case slot(F, "name"): return name;
      case slot(F, "from"): return from ? std::optional<ordered_json>(std::move(*from)) : std::nullopt;
      case slot(F, "value"): return v;
      default: return std::nullopt;
    }
  });
}

}  // namespace

ordered_json fixture_status_json() {
  return object_of<kFixtureStatus>([](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kFixtureStatus;
    switch (field()) {
      case slot(F, "authoring_state"): return "engine_generated";
      case slot(F, "verification_state"): return "engine_reproduced_byte_equal";
      case slot(F, "canonical"): return true;
      default: return std::nullopt;
    }
  });
}

ordered_json metadata_json(const std::optional<topology::Metadata>& m) {
  return object_of<kGeneralMetadata>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kGeneralMetadata;
    switch (field()) {
      case slot(F, "source"):
        if (!m) return "src/general-engine.ts (generalized backprop engine first-run)";
        return m->source;
      case slot(F, "url_reference"):
        if (m && m->url_reference) return *m->url_reference;
        return std::nullopt;
      case slot(F, "gradient_convention"): return m ? m->gradient_convention : "descent_direction";
      default: return std::nullopt;
    }
  });
}

namespace {

ordered_json parameter_json(const topology::Parameter& p) {
  return object_of<kTopologyParameter>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kTopologyParameter;
    switch (field()) {
      case slot(F, "id"): return p.id;
      case slot(F, "role"): return to_string(p.role);
      case slot(F, "from_unit"): return p.from_unit ? std::optional<ordered_json>(*p.from_unit) : std::nullopt;
      case slot(F, "to_unit"): return p.to_unit ? std::optional<ordered_json>(*p.to_unit) : std::nullopt;
      case slot(F, "applies_to_units"):
        return p.applies_to_units ? std::optional<ordered_json>(*p.applies_to_units) : std::nullopt;
      default: return std::nullopt;
    }
  });
}

}  // namespace

ordered_json topology_json(const topology::Topology& t) {
  return object_of<kGeneralTopology>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kGeneralTopology;
    switch (field()) {
      case slot(F, "layers"): return ordered_json::array({"input", "hidden", "output"});
      case slot(F, "input_size"): return t.input_size;
      case slot(F, "hidden_size"): return t.hidden_size;
      case slot(F, "output_size"): return t.output_size;
      case slot(F, "unit_order"):
        return object_of<kUnitOrder>([&](auto unit) -> std::optional<ordered_json> {
          switch (unit()) {
            case slot(kUnitOrder, "input"): return t.unit_order.input;
            case slot(kUnitOrder, "hidden"): return t.unit_order.hidden;
            case slot(kUnitOrder, "output"): return t.unit_order.output;
            default: return std::nullopt;
          }
        });
      case slot(F, "parameter_order"): return t.parameter_order;
      case slot(F, "parameters"): {
        ordered_json params = ordered_json::array();
        for (const auto& p : t.parameters) params.push_back(parameter_json(p));
        return params;
      }
      case slot(F, "activation_hidden"): return to_string(t.activation_hidden);
      case slot(F, "activation_output"): return to_string(t.activation_output);
      case slot(F, "loss"): return to_string(t.loss);
      case slot(F, "bias_sharing"): return to_string(t.bias_sharing);
      default: return std::nullopt;
    }
  });
}

ordered_json value_map_json(const std::vector<std::string>& ids, const double* values) {
  // ids are unique (the topology was validated).
  JsonObjectBuilder out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) out.add(ids[i], values[i]);
  return out.done();
}

ordered_json forward_json(const topology::Topology& t, const ForwardValues& f, const char* status) {
  const auto unit = [](double net, double out) {
    return object_of<kForwardUnit>([&](auto field) -> std::optional<ordered_json> {
      switch (field()) {
        case slot(kForwardUnit, "net"): return net;
        case slot(kForwardUnit, "out"): return out;
        default: return std::nullopt;
      }
    });
  };
  // The units are the topology's own keys, in its unit order.
  JsonObjectBuilder out(t.unit_order.hidden.size() + t.unit_order.output.size() + 1);
  if (status != nullptr) out.add("status", status);
  for (std::size_t h = 0; h < t.unit_order.hidden.size(); ++h) out.add(t.unit_order.hidden[h], unit(f.net_h[h], f.out_h[h]));
  for (std::size_t o = 0; o < t.unit_order.output.size(); ++o) out.add(t.unit_order.output[o], unit(f.net_o[o], f.out_o[o]));
  return out.done();
}

ordered_json loss_json(const topology::Topology& t, const std::vector<double>& per_output, double total) {
  return object_of<kGeneralLoss>([&](auto field) -> std::optional<ordered_json> {
    switch (field()) {
      case slot(kGeneralLoss, "per_output"): return value_map_json(t.unit_order.output, per_output.data());
      case slot(kGeneralLoss, "total"): return total;
      default: return std::nullopt;  // per_sample and reduction: batched receipts (receipt_json.cpp)
    }
  });
}

namespace {

ordered_json output_signal_json(const topology::Topology& t, const StepCore& c, const double* targets, std::size_t u) {
  const auto& outs = t.unit_order.output;
  const std::size_t n_out = outs.size();
  const bool softmax = t.loss == topology::Loss::cross_entropy_softmax;
  const auto jacobian_term = [&](std::size_t j) {
    return object_of<kJacobianTerm>([&](auto field) -> std::optional<ordered_json> {
      switch (field()) {
        case slot(kJacobianTerm, "target_unit"): return outs[j];
        case slot(kJacobianTerm, "factors"):
          return ordered_json::array({named_factor("y_j", "targets." + outs[j], targets[j]),
                                      named_factor("delta_ju_minus_p_u", std::nullopt, c.dual_delta_minus_p[u * n_out + j])});
        case slot(kJacobianTerm, "term_value"): return c.dual_term[u * n_out + j];
        default: return std::nullopt;
      }
    });
  };
  const auto dual_form = [&] {
    return object_of<kDualForm>([&](auto field) -> std::optional<ordered_json> {
      switch (field()) {
        case slot(kDualForm, "jacobian_terms"): {
          ordered_json terms = ordered_json::array();
          for (std::size_t j = 0; j < n_out; ++j) terms.push_back(jacobian_term(j));
          return terms;
        }
        case slot(kDualForm, "product_order"): return "left_to_right";
        case slot(kDualForm, "summation_order"): return outs;
        case slot(kDualForm, "summed_value"): return c.dual_sum[u];
        default: return std::nullopt;
      }
    });
  };
  return object_of<kOutputErrorSignal>([&](auto field) -> std::optional<ordered_json> {
    switch (field()) {
      case slot(kOutputErrorSignal, "factors"):
        if (softmax) return ordered_json::array({named_factor("target_minus_probability", std::nullopt, c.sig_o[u])});
        return ordered_json::array({named_factor("target_minus_output", std::nullopt, c.tmo[u]),
                                    named_factor("activation_derivative", std::nullopt, c.ad_o[u])});
      case slot(kOutputErrorSignal, "product_order"): return "left_to_right";
      case slot(kOutputErrorSignal, "signal_value"): return c.sig_o[u];
      case slot(kOutputErrorSignal, "dual_form"): return softmax ? std::optional<ordered_json>(dual_form()) : std::nullopt;
      default: return std::nullopt;
    }
  });
}

ordered_json hidden_signal_json(const topology::Topology& t, const topology::TopologyIndex& ix, const StepCore& c,
                                const double* params, std::size_t h) {
  const auto& outs = t.unit_order.output;
  const std::size_t n_out = outs.size();
  const auto contribution = [&](std::size_t o) {
    const std::uint32_t w = ix.w_ho[o * ix.n_hid + h];
    return object_of<kDownstreamContribution>([&](auto field) -> std::optional<ordered_json> {
      constexpr auto& F = kDownstreamContribution;
      switch (field()) {
        case slot(F, "from"): return outs[o];
        case slot(F, "downstream_signal"): return c.sig_o[o];
        case slot(F, "via_weight"): return t.parameter_order[w];
        case slot(F, "weight_value"): return params[w];
        case slot(F, "value"): return c.contrib[h * n_out + o];
        default: return std::nullopt;
      }
    });
  };
  return object_of<kHiddenErrorSignal>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kHiddenErrorSignal;
    switch (field()) {
      case slot(F, "downstream_contributions"): {
        ordered_json contribs = ordered_json::array();
        contribs.get_ref<ordered_json::array_t&>().reserve(n_out);
        for (std::size_t o = 0; o < n_out; ++o) contribs.push_back(contribution(o));
        return contribs;
      }
      case slot(F, "summation_order"): return outs;
      case slot(F, "backpropagated_sum"): return c.bsum_h[h];
      case slot(F, "activation_derivative"): return c.ad_h[h];
      case slot(F, "product_order"): return "left_to_right";
      case slot(F, "signal_value"): return c.sig_h[h];
      default: return std::nullopt;
    }
  });
}

}  // namespace

ordered_json backward_json(const topology::Topology& t, const topology::TopologyIndex& ix, const StepCore& c,
                           const double* params, const double* targets) {
  return object_of<kBackward>([&](auto field) -> std::optional<ordered_json> {
    switch (field()) {
      case slot(kBackward, "output_error_signals"): {
        // Keyed by the topology's units, in its unit order.
        JsonObjectBuilder signals(t.unit_order.output.size());
        for (std::size_t u = 0; u < t.unit_order.output.size(); ++u) {
          signals.add(t.unit_order.output[u], output_signal_json(t, c, targets, u));
        }
        return signals.done();
      }
      case slot(kBackward, "hidden_error_signals"): {
        JsonObjectBuilder signals(t.unit_order.hidden.size());
        for (std::size_t h = 0; h < t.unit_order.hidden.size(); ++h) {
          signals.add(t.unit_order.hidden[h], hidden_signal_json(t, ix, c, params, h));
        }
        return signals.done();
      }
      default: return std::nullopt;
    }
  });
}

ordered_json gradient_factors_json(const topology::Topology& t, const topology::TopologyIndex& ix, const StepCore& c,
                                   const double* x, std::size_t k) {
  const topology::ParameterSlot& s = ix.slots[k];
  const auto signal = [&](const char* name, const char* layer, const std::string& unit, double v) {
    return named_factor(name, std::string("backward.") + layer + "_error_signals." + unit + ".signal_value", v);
  };
  ordered_json out = ordered_json::array();
  auto& items = out.get_ref<ordered_json::array_t&>();
  items.reserve(2);
  switch (s.role) {
    case Role::input_to_hidden_weight:
      items.push_back(signal("hidden_error_signal", "hidden", t.unit_order.hidden[s.to], c.sig_h[s.to]));
      items.push_back(named_factor("upstream_activation", "inputs." + t.unit_order.input[s.from], x[s.from]));
      break;
    case Role::hidden_to_output_weight:
      items.push_back(signal("output_error_signal", "output", t.unit_order.output[s.to], c.sig_o[s.to]));
      items.push_back(
          named_factor("upstream_activation", "forward." + t.unit_order.hidden[s.from] + ".out", c.fwd.out_h[s.from]));
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
  const bool bias = s.role == Role::hidden_bias || s.role == Role::output_bias;
  const std::string& bias_unit = bias ? (*p.applies_to_units)[0] : p.id;
  return object_of<kUpdate>([&](auto field) -> std::optional<ordered_json> {
    constexpr auto& F = kUpdate;
    switch (field()) {
      case slot(F, "parameter_id"): return p.id;
      case slot(F, "kind"): return bias ? "bias" : "weight";
      case slot(F, "layer_edge"):
        if (bias) return "bias_to_layer";
        return s.role == Role::input_to_hidden_weight ? "input_to_hidden" : "hidden_to_output";
      case slot(F, "parameter_role"):
        if (bias) return to_string(s.role);
        return *p.from_unit + "_to_" + *p.to_unit;
      case slot(F, "from_unit"): return bias ? bias_unit : *p.from_unit;
      case slot(F, "to_unit"): return bias ? bias_unit : *p.to_unit;
      case slot(F, "weight_before"): return weight_before;
      case slot(F, "optimizer"): return std::move(optimizer);
      case slot(F, "gradient"): return gradient;
      case slot(F, "update"): return update;
      case slot(F, "weight_after"): return weight_after;
      default: return std::nullopt;
    }
  });
}

}  // namespace receipt::engine
