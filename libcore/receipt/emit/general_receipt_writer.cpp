// Canonical bytes of a GeneralReceipt, written straight from the engine's arrays. The key order is
// the general layout's (field_layout.cpp, the schemas' x-order); receipt_writer_test holds this
// writer and the document emitter (emit_receipt_line(to_json(r))) byte-equal on every engine
// configuration, and the compat tests hold both to the reference.
#include "receipt/emit/general_receipt_writer.hpp"

#include <charconv>
#include <string>
#include <vector>

#include "common/json_string.hpp"
#include "common/number_format.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/sections.hpp"
#include "receipt/engine/receipt_json.hpp"

namespace receipt::emit {
namespace {

using engine::GeneralReceipt;
using topology::Role;

// Ids as JSON string literals, escaped once per receipt instead of once per occurrence.
std::vector<std::string> quoted(const std::vector<std::string>& ids) {
  std::vector<std::string> out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) common::append_json_string(out[i], ids[i]);
  return out;
}

class Writer {
 public:
  Writer(const GeneralReceipt& r, std::string& out)
      : r_(r),
        t_(r.topology()),
        out_(out),
        in_(quoted(t_.unit_order.input)),
        hid_(quoted(t_.unit_order.hidden)),
        outs_(quoted(t_.unit_order.output)),
        params_(quoted(t_.parameter_order)) {}

  // False when a number is outside the canonical range (the caller re-emits for the error).
  bool receipt();

 private:
  void lit(std::string_view s) { out_.append(s); }
  void str(std::string_view s) { common::append_json_string(out_, s); }
  // A cached quoted id without its quotes, to splice into a longer string literal.
  void unquoted(const std::string& quoted_id) { out_.append(quoted_id, 1, quoted_id.size() - 2); }
  void num(double v) {
    if (!common::append_receipt_number(out_, v)) ok_ = false;
  }
  void integer(std::int64_t v) {
    // Beyond 2^53 JavaScript prints rounded digits; the shared formatter knows how.
    if (v > (std::int64_t{1} << 53) || v < -(std::int64_t{1} << 53)) {
      auto s = common::format_receipt_integer(static_cast<double>(v));
      if (!s) {
        ok_ = false;
        return;
      }
      out_.append(*s);
      return;
    }
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, res.ptr);
  }
  void string_array(const std::vector<std::string>& quoted_ids) {
    out_.push_back('[');
    for (std::size_t i = 0; i < quoted_ids.size(); ++i) {
      if (i) out_.push_back(',');
      out_.append(quoted_ids[i]);
    }
    out_.push_back(']');
  }
  void number_map(const std::vector<std::string>& ids, const double* values) {
    out_.push_back('{');
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i) out_.push_back(',');
      out_.append(ids[i]);
      out_.push_back(':');
      num(values[i]);
    }
    out_.push_back('}');
  }
  // A block the document writer already knows (policies: small, and free-form enough to keep one
  // implementation of their rules).
  void document_block(const nlohmann::ordered_json& v, Status (*write)(ObjectWriter&, const ojson&)) {
    ObjectWriter w;
    if (!write(w, v)) {
      ok_ = false;
      return;
    }
    out_.append(w.out().text());
  }

  void head();
  void topology();
  void optimizer_config();
  void batch();
  void forward_map(const engine::ForwardValues& f, bool with_status);
  void per_sample();
  void loss();
  void backward();
  void output_signal(std::size_t u);
  void hidden_signal(std::size_t h);
  void named_factor(std::string_view name, const std::string* from, double value);
  void updates();
  void gradient_factors(std::size_t k);
  void state(const engine::OptimizerState& s);

  const GeneralReceipt& r_;
  const topology::Topology& t_;
  std::string& out_;
  std::vector<std::string> in_, hid_, outs_, params_;
  bool ok_ = true;
};

bool Writer::receipt() {
  const auto& b = r_.input->base;
  head();
  lit(",\"inputs\":");
  number_map(in_, r_.inputs());
  lit(",\"targets\":");
  number_map(outs_, r_.targets());
  lit(",\"parameters_before\":");
  number_map(params_, b.parameters_before.data());
  if (r_.batched()) per_sample();
  lit(",\"forward\":");
  forward_map(r_.core.fwd, false);
  loss();
  backward();
  updates();
  lit(",\"parameters_after\":");
  number_map(params_, r_.parameters_after.data());
  lit(",\"post_update_forward\":");
  forward_map(r_.post_forward, true);
  lit(",\"post_update_loss\":{\"status\":\"filled\",\"per_output\":");
  number_map(outs_, r_.post_loss_per_output.data());
  lit(",\"total\":");
  num(r_.post_loss_total);
  lit("}}\n");
  return ok_;
}

void Writer::head() {
  const auto& b = r_.input->base;
  lit("{\"schema_version\":");
  str(r_.schema_version);
  lit(",\"fixture\":");
  str(r_.fixture);
  lit(",\"step\":");
  integer(b.step_index.value_or(0) + 1);
  lit(",\"fixture_status\":{\"authoring_state\":\"engine_generated\",\"verification_state\":"
      "\"engine_reproduced_byte_equal\",\"canonical\":true},\"metadata\":{\"source\":");
  if (b.metadata) {
    str(b.metadata->source);
    if (b.metadata->url_reference) {
      lit(",\"url_reference\":");
      str(*b.metadata->url_reference);
    }
    lit(",\"gradient_convention\":");
    str(b.metadata->gradient_convention);
  } else {
    lit("\"src/general-engine.ts (generalized backprop engine first-run)\",\"gradient_convention\":"
        "\"descent_direction\"");
  }
  lit("},\"numeric_policy\":");
  document_block(b.numeric_policy.json, write_numeric_policy);
  lit(",\"bias_policy\":");
  document_block(b.bias_policy.json, write_bias_policy);
  topology();
  lit(",\"learning_rate\":");
  num(b.learning_rate);
  if (!r_.batched()) optimizer_config();
  if (b.trace_id) {
    lit(",\"trace_id\":");
    str(*b.trace_id);
  }
  if (b.step_index) {
    lit(",\"step_index\":");
    integer(*b.step_index);
  }
  if (r_.batched()) batch();
}

void Writer::topology() {
  lit(",\"topology\":{\"layers\":[\"input\",\"hidden\",\"output\"],\"input_size\":");
  integer(t_.input_size);
  lit(",\"hidden_size\":");
  integer(t_.hidden_size);
  lit(",\"output_size\":");
  integer(t_.output_size);
  lit(",\"unit_order\":{\"input\":");
  string_array(in_);
  lit(",\"hidden\":");
  string_array(hid_);
  lit(",\"output\":");
  string_array(outs_);
  lit("},\"parameter_order\":");
  string_array(params_);
  lit(",\"parameters\":[");
  for (std::size_t k = 0; k < t_.parameters.size(); ++k) {
    const auto& p = t_.parameters[k];
    if (k) out_.push_back(',');
    lit("{\"id\":");
    out_.append(params_[k]);  // parameters[k].id == parameter_order[k] (the index checked it)
    lit(",\"role\":");
    str(to_string(p.role));
    if (p.from_unit) {
      lit(",\"from_unit\":");
      str(*p.from_unit);
    }
    if (p.to_unit) {
      lit(",\"to_unit\":");
      str(*p.to_unit);
    }
    if (p.applies_to_units) {
      lit(",\"applies_to_units\":[");
      for (std::size_t i = 0; i < p.applies_to_units->size(); ++i) {
        if (i) out_.push_back(',');
        str((*p.applies_to_units)[i]);
      }
      out_.push_back(']');
    }
    out_.push_back('}');
  }
  lit("],\"activation_hidden\":");
  str(to_string(t_.activation_hidden));
  lit(",\"activation_output\":");
  str(to_string(t_.activation_output));
  lit(",\"loss\":");
  str(to_string(t_.loss));
  lit(",\"bias_sharing\":");
  str(to_string(t_.bias_sharing));
  out_.push_back('}');
}

// Mirrors the document form: plain SGD writes no block unless coupled L2 is on; nesterov only when
// true, dampening only when non-zero.
void Writer::optimizer_config() {
  const auto& oc = r_.input->optimizer;
  if (!oc) return;
  using engine::OptimizerName;
  const bool decay = oc->weight_decay.value_or(0.0) != 0;
  if (oc->name == OptimizerName::sgd && !decay) return;
  lit(",\"optimizer_config\":{\"name\":");
  str(engine::to_string(oc->name));
  lit(",\"learning_rate\":");
  num(oc->learning_rate);
  switch (oc->name) {
    case OptimizerName::adam:
    case OptimizerName::adamw:
      lit(",\"beta1\":");
      num(*oc->beta1);
      lit(",\"beta2\":");
      num(*oc->beta2);
      lit(",\"epsilon\":");
      num(*oc->epsilon);
      if (oc->name == OptimizerName::adamw) {
        lit(",\"weight_decay\":");
        num(*oc->weight_decay);
      }
      lit(",\"t\":");
      integer(*oc->t);
      break;
    case OptimizerName::sgd_momentum:
      if (decay) {
        lit(",\"weight_decay\":");
        num(*oc->weight_decay);
      }
      lit(",\"momentum\":");
      num(*oc->momentum);
      if (oc->nesterov.value_or(false)) lit(",\"nesterov\":true");
      if (oc->dampening.value_or(0.0) != 0) {
        lit(",\"dampening\":");
        num(*oc->dampening);
      }
      break;
    case OptimizerName::sgd:
      lit(",\"weight_decay\":");
      num(*oc->weight_decay);
      break;
  }
  out_.push_back('}');
}

void Writer::batch() {
  const engine::Batch& batch = *r_.input->batch;
  lit(",\"batch\":{\"size\":");
  integer(static_cast<std::int64_t>(batch.samples.size()));
  lit(",\"sample_order\":[");
  for (std::size_t s = 0; s < batch.samples.size(); ++s) {
    if (s) out_.push_back(',');
    str(batch.samples[s].id);
  }
  lit("],\"reduction\":");
  str(engine::to_string(batch.reduction));
  out_.push_back('}');
}

void Writer::forward_map(const engine::ForwardValues& f, bool with_status) {
  out_.push_back('{');
  if (with_status) lit("\"status\":\"filled\",");
  const auto unit = [&](const std::string& id, double net, double out) {
    out_.append(id);
    lit(":{\"net\":");
    num(net);
    lit(",\"out\":");
    num(out);
    out_.push_back('}');
  };
  for (std::size_t h = 0; h < hid_.size(); ++h) {
    if (h) out_.push_back(',');
    unit(hid_[h], f.net_h[h], f.out_h[h]);
  }
  for (std::size_t o = 0; o < outs_.size(); ++o) {
    if (o || !hid_.empty()) out_.push_back(',');
    unit(outs_[o], f.net_o[o], f.out_o[o]);
  }
  out_.push_back('}');
}

void Writer::per_sample() {
  const engine::Batch& batch = *r_.input->batch;
  lit(",\"per_sample\":{");
  for (std::size_t s = 0; s < batch.samples.size(); ++s) {
    const engine::Sample& smp = batch.samples[s];
    const engine::SampleRecord& rec = r_.samples[s];
    if (s) out_.push_back(',');
    str(smp.id);
    lit(":{\"inputs\":");
    number_map(in_, smp.inputs.data());
    lit(",\"targets\":");
    number_map(outs_, smp.targets.data());
    lit(",\"forward\":");
    forward_map(rec.forward, false);
    lit(",\"loss\":{\"per_output\":");
    number_map(outs_, rec.loss_per_output.data());
    lit(",\"total\":");
    num(rec.loss_total);
    lit("}}");
  }
  out_.push_back('}');
}

void Writer::loss() {
  lit(",\"loss\":{\"per_output\":");
  if (!r_.batched()) {
    number_map(outs_, r_.core.loss_o.data());
    lit(",\"total\":");
    num(r_.core.loss_total);
    out_.push_back('}');
    return;
  }
  const engine::Batch& batch = *r_.input->batch;
  number_map(outs_, r_.reduced_loss_per_output.data());
  lit(",\"per_sample\":{");
  for (std::size_t s = 0; s < batch.samples.size(); ++s) {
    if (s) out_.push_back(',');
    str(batch.samples[s].id);
    out_.push_back(':');
    num(r_.samples[s].loss_total);
  }
  lit("},\"reduction\":");
  str(engine::to_string(batch.reduction));
  lit(",\"total\":");
  num(r_.reduced_loss_total);
  out_.push_back('}');
}

void Writer::named_factor(std::string_view name, const std::string* from, double value) {
  lit("{\"name\":");
  str(name);
  if (from != nullptr) {
    lit(",\"from\":");
    str(*from);
  }
  lit(",\"value\":");
  num(value);
  out_.push_back('}');
}

void Writer::output_signal(std::size_t u) {
  const engine::StepCore& c = r_.core;
  const std::size_t n_out = outs_.size();
  if (t_.loss == topology::Loss::cross_entropy_softmax) {
    lit("{\"factors\":[");
    named_factor("target_minus_probability", nullptr, c.sig_o[u]);
    lit("],\"product_order\":\"left_to_right\",\"signal_value\":");
    num(c.sig_o[u]);
    lit(",\"dual_form\":{\"jacobian_terms\":[");
    const double* y = r_.targets();
    for (std::size_t j = 0; j < n_out; ++j) {
      if (j) out_.push_back(',');
      lit("{\"target_unit\":");
      out_.append(outs_[j]);
      lit(",\"factors\":[");
      const std::string from = "targets." + t_.unit_order.output[j];
      named_factor("y_j", &from, y[j]);
      out_.push_back(',');
      named_factor("delta_ju_minus_p_u", nullptr, c.dual_delta_minus_p[u * n_out + j]);
      lit("],\"term_value\":");
      num(c.dual_term[u * n_out + j]);
      out_.push_back('}');
    }
    lit("],\"product_order\":\"left_to_right\",\"summation_order\":");
    string_array(outs_);
    lit(",\"summed_value\":");
    num(c.dual_sum[u]);
    lit("}}");
    return;
  }
  lit("{\"factors\":[");
  named_factor("target_minus_output", nullptr, c.tmo[u]);
  out_.push_back(',');
  named_factor("activation_derivative", nullptr, c.ad_o[u]);
  lit("],\"product_order\":\"left_to_right\",\"signal_value\":");
  num(c.sig_o[u]);
  out_.push_back('}');
}

void Writer::hidden_signal(std::size_t h) {
  const engine::StepCore& c = r_.core;
  const auto& ix = r_.index;
  const std::size_t n_out = outs_.size();
  const double* params = r_.input->base.parameters_before.data();
  lit("{\"downstream_contributions\":[");
  for (std::size_t o = 0; o < n_out; ++o) {
    const std::uint32_t w = ix.w_ho[o * ix.n_hid + h];
    if (o) out_.push_back(',');
    lit("{\"from\":");
    out_.append(outs_[o]);
    lit(",\"downstream_signal\":");
    num(c.sig_o[o]);
    lit(",\"via_weight\":");
    out_.append(params_[w]);
    lit(",\"weight_value\":");
    num(params[w]);
    lit(",\"value\":");
    num(c.contrib[h * n_out + o]);
    out_.push_back('}');
  }
  lit("],\"summation_order\":");
  string_array(outs_);
  lit(",\"backpropagated_sum\":");
  num(c.bsum_h[h]);
  lit(",\"activation_derivative\":");
  num(c.ad_h[h]);
  lit(",\"product_order\":\"left_to_right\",\"signal_value\":");
  num(c.sig_h[h]);
  out_.push_back('}');
}

void Writer::backward() {
  lit(",\"backward\":{\"output_error_signals\":{");
  for (std::size_t u = 0; u < outs_.size(); ++u) {
    if (u) out_.push_back(',');
    out_.append(outs_[u]);
    out_.push_back(':');
    output_signal(u);
  }
  lit("},\"hidden_error_signals\":{");
  for (std::size_t h = 0; h < hid_.size(); ++h) {
    if (h) out_.push_back(',');
    out_.append(hid_[h]);
    out_.push_back(':');
    hidden_signal(h);
  }
  lit("}}");
}

// The gradient's factors: the downstream unit's error signal, and for weights the upstream activation.
// Their "from" paths are spelled from the cached quoted ids (escaping a concatenation of ASCII text
// and an id equals concatenating the escaped pieces).
void Writer::gradient_factors(std::size_t k) {
  const topology::ParameterSlot& s = r_.index.slots[k];
  const engine::StepCore& c = r_.core;
  const auto signal = [&](bool hidden, std::uint32_t unit) {
    lit(hidden ? "{\"name\":\"hidden_error_signal\",\"from\":\"backward.hidden_error_signals."
               : "{\"name\":\"output_error_signal\",\"from\":\"backward.output_error_signals.");
    unquoted(hidden ? hid_[unit] : outs_[unit]);
    lit(".signal_value\",\"value\":");
    num(hidden ? c.sig_h[unit] : c.sig_o[unit]);
    out_.push_back('}');
  };
  switch (s.role) {
    case Role::input_to_hidden_weight:
      signal(true, s.to);
      lit(",{\"name\":\"upstream_activation\",\"from\":\"inputs.");
      unquoted(in_[s.from]);
      lit("\",\"value\":");
      num(r_.inputs()[s.from]);
      out_.push_back('}');
      break;
    case Role::hidden_to_output_weight:
      signal(false, s.to);
      lit(",{\"name\":\"upstream_activation\",\"from\":\"forward.");
      unquoted(hid_[s.from]);
      lit(".out\",\"value\":");
      num(c.fwd.out_h[s.from]);
      out_.push_back('}');
      break;
    case Role::hidden_bias: signal(true, s.from); break;
    case Role::output_bias: signal(false, s.from); break;
  }
}

void Writer::state(const engine::OptimizerState& s) {
  if (r_.input->optimizer->name == engine::OptimizerName::sgd_momentum) {
    lit("{\"buffer\":");
    num(s.buffer);
  } else {
    lit("{\"m\":");
    num(s.m);
    lit(",\"v\":");
    num(s.v);
  }
  out_.push_back('}');
}

void Writer::updates() {
  const double lr = r_.input->base.learning_rate;
  const char* opt_name = r_.optimizer_name();
  lit(",\"updates\":[");
  for (std::size_t i = 0; i < r_.updates.size(); ++i) {
    const engine::UpdateRecord& u = r_.updates[i];
    const topology::ParameterSlot& s = r_.index.slots[u.slot];
    if (i) out_.push_back(',');
    lit("{\"parameter_id\":");
    out_.append(params_[u.slot]);
    // The slot resolved the parameter's units to layer positions: the cached ids are its strings.
    if (s.role == Role::hidden_bias || s.role == Role::output_bias) {
      const std::string& unit = s.role == Role::hidden_bias ? hid_[s.from] : outs_[s.from];
      lit(",\"kind\":\"bias\",\"layer_edge\":\"bias_to_layer\",\"parameter_role\":");
      str(to_string(s.role));
      lit(",\"from_unit\":");
      out_.append(unit);
      lit(",\"to_unit\":");
      out_.append(unit);
    } else {
      const bool ih = s.role == Role::input_to_hidden_weight;
      const std::string& from = ih ? in_[s.from] : hid_[s.from];
      const std::string& to = ih ? hid_[s.to] : outs_[s.to];
      lit(ih ? ",\"kind\":\"weight\",\"layer_edge\":\"input_to_hidden\",\"parameter_role\":\""
             : ",\"kind\":\"weight\",\"layer_edge\":\"hidden_to_output\",\"parameter_role\":\"");
      unquoted(from);
      lit("_to_");
      unquoted(to);
      lit("\",\"from_unit\":");
      out_.append(from);
      lit(",\"to_unit\":");
      out_.append(to);
    }
    lit(",\"weight_before\":");
    num(u.weight_before);
    lit(",\"optimizer\":{\"name\":");
    str(opt_name);
    lit(",\"learning_rate\":");
    num(lr);
    lit(",\"factors\":[");
    if (r_.batched()) {
      named_factor("batch_reduced_gradient", nullptr, u.gradient);
    } else {
      gradient_factors(u.slot);
    }
    lit("],\"product_order\":\"left_to_right\"");
    if (r_.stateful) {
      lit(",\"state_before\":");
      state(u.state_before);
      lit(",\"state_after\":");
      state(u.state_after);
    }
    lit("},\"gradient\":");
    num(u.gradient);
    lit(",\"update\":");
    num(u.update);
    lit(",\"weight_after\":");
    num(u.weight_after);
    out_.push_back('}');
  }
  out_.push_back(']');
}

}  // namespace

common::Status append_receipt_line(std::string& out, const GeneralReceipt& receipt) {
  const std::size_t mark = out.size();
  if (Writer(receipt, out).receipt()) return {};
  // Some number is outside the canonical range: the document path names where.
  out.resize(mark);
  auto line = emit_receipt_line(engine::to_json(receipt));
  if (!line) return line.error();
  out.append(*line);
  return {};
}

common::Result<std::string> emit_receipt_line(const GeneralReceipt& receipt) {
  std::string out;
  if (auto s = append_receipt_line(out, receipt); !s) return s.error();
  return out;
}

common::Result<std::string> emit_receipts(const std::vector<engine::EngineReceipt>& receipts) {
  std::string out;
  for (std::size_t i = 0; i < receipts.size(); ++i) {
    common::Status status;
    if (const auto* general = std::get_if<GeneralReceipt>(&receipts[i])) {
      status = append_receipt_line(out, *general);
    } else {
      auto line = emit_receipt_line(std::get<nlohmann::ordered_json>(receipts[i]));
      if (line) out += *line;
      else status = line.error();
    }
    if (!status) {
      const common::Error& e = status.error();
      return common::Error(e.code(), "record " + std::to_string(i + 1) + ": " + e.message(), e.where());
    }
  }
  return out;
}

}  // namespace receipt::emit
