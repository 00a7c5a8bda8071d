// Canonical bytes of a GeneralReceipt, written straight from the engine's arrays. Every object's keys
// come from receipt/layout/fields.hpp, in its order (the schemas' x-order); receipt_writer_test holds this
// writer and the document emitter (emit_receipt_line(to_json(r))) byte-equal on every engine
// configuration, and the compat tests hold both to the reference.
#include "receipt/emit/general_receipt_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/json_string.hpp"
#include "common/number_format.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/sections.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "receipt/layout/fields.hpp"

namespace receipt::emit {
namespace {

using engine::GeneralReceipt;
using layout::slot;
using topology::Role;
using namespace layout::tables;

// "{\"key\":" for the first field I of Table, ",\"key\":" for the others, spelled at compile time
// from the table.
template <const auto& Table, std::size_t I>
inline constexpr auto kKeyText = [] {
  constexpr std::string_view key = Table[I].key;
  std::array<char, key.size() + 4> text{};
  text[0] = I == 0 ? '{' : ',';
  text[1] = '"';
  for (std::size_t i = 0; i < key.size(); ++i) text[2 + i] = key[i];
  text[key.size() + 2] = '"';
  text[key.size() + 3] = ':';
  return text;
}();

// Ids as JSON string literals, escaped once per receipt instead of once per occurrence.
std::vector<std::string> quoted(const std::vector<std::string>& ids) {
  std::vector<std::string> out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) common::append_json_string(out[i], ids[i]);
  return out;
}

// Where a Writer's bytes go: appended to a string, or compared with the bytes expected there (a
// receipt being reproduced is checked against its own text without a second copy of megabytes).
class Sink {
 public:
  explicit Sink(std::string& out) : out_(&out) {}
  explicit Sink(std::string_view expected) : expected_(expected) {}

  void put(const char* s, std::size_t n) {
    if (out_ != nullptr) {
      out_->append(s, n);
      return;
    }
    if (differs_ || expected_.size() - at_ < n || std::memcmp(expected_.data() + at_, s, n) != 0) {
      differs_ = true;
      return;
    }
    at_ += n;
  }
  // Comparing: every byte so far was the expected one, and this many were consumed.
  [[nodiscard]] bool differs() const { return differs_; }
  [[nodiscard]] std::size_t consumed() const { return at_; }

 private:
  std::string* out_ = nullptr;
  std::string_view expected_;
  std::size_t at_ = 0;
  bool differs_ = false;
};

// Writes through a cursor into a chunk of its own, handed to the sink when full: a write checks the
// room left and copies, where std::string::append would call out per key and per value (keys and
// constant values are compile-time literals, so their copies inline to a few moves).
class Writer {
 public:
  // `labels`: every real number written as 0 (emit_receipt_labels).
  Writer(const GeneralReceipt& r, Sink& out, bool labels = false)
      : labels_(labels),
        r_(r),
        t_(r.topology()),
        out_(out),
        in_(quoted(t_.unit_order.input)),
        hid_(quoted(t_.unit_order.hidden)),
        outs_(quoted(t_.unit_order.output)),
        params_(quoted(t_.parameter_order)) {
    common::append_json_string(opt_name_, r_.optimizer_name());
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // False when a number is outside the canonical range (the caller re-emits for the error).
  bool receipt();

 private:
  // Small enough to stay in L1, big enough that flushes are rare.
  static constexpr std::size_t kChunk = 4000;
  const bool labels_;

  void flush() {
    out_.put(buf_, static_cast<std::size_t>(p_ - buf_));
    p_ = buf_;
  }
  // Room for n <= kChunk bytes at the cursor.
  [[gnu::always_inline]] void room(std::size_t n) {
    if (static_cast<std::size_t>(buf_ + kChunk - p_) < n) flush();
  }
  [[gnu::always_inline]] void ch(char c) {
    room(1);
    *p_++ = c;
  }
  template <std::size_t N>
  [[gnu::always_inline]] void fixed(const char* s) {
    static_assert(N <= kChunk);
    room(N);
    std::memcpy(p_, s, N);
    p_ += N;
  }
  void raw(const char* s, std::size_t n) {
    if (n > kChunk) {
      flush();
      out_.put(s, n);
      return;
    }
    room(n);
    std::memcpy(p_, s, n);
    p_ += n;
  }
  void raw(std::string_view s) { raw(s.data(), s.size()); }
  template <std::size_t N>
  [[gnu::always_inline]] void lit(const char (&s)[N]) {
    fixed<N - 1>(s);
  }
  void lit(std::string_view s) { raw(s); }
  void str(std::string_view s) {
    scratch_.clear();
    common::append_json_string(scratch_, s);
    raw(scratch_);
  }
  // A cached quoted id without its quotes, to splice into a longer string literal.
  void unquoted(const std::string& quoted_id) { raw(quoted_id.data() + 1, quoted_id.size() - 2); }
  void num(double v) {
    // Surely inside the canonical range (|v| in [1e-13, 1e7), 0): no need to spell it. Anything
    // nearer the edges, or not finite, is spelled, so that it fails where it would.
    if (labels_ && (v == 0 || (std::fabs(v) >= 1.0000001e-13 && std::fabs(v) <= 9999999.0))) {
      ch('0');
      return;
    }
    room(common::kReceiptNumberMaxChars);
    if (const std::size_t n = common::write_receipt_number_fast(p_, v)) {
      p_ += n;
      return;
    }
    auto slow = common::format_receipt_number(v);
    if (!slow) {
      ok_ = false;
      return;
    }
    raw(*slow);
  }
  void integer(std::int64_t v) {
    // Beyond 2^53 JavaScript prints rounded digits; the shared formatter knows how.
    if (v > (std::int64_t{1} << 53) || v < -(std::int64_t{1} << 53)) {
      auto s = common::format_receipt_integer(static_cast<double>(v));
      if (!s) {
        ok_ = false;
        return;
      }
      raw(*s);
      return;
    }
    room(24);
    p_ = std::to_chars(p_, p_ + 24, v).ptr;
  }
  void string_array(const std::vector<std::string>& quoted_ids) {
    ch('[');
    for (std::size_t i = 0; i < quoted_ids.size(); ++i) {
      if (i) ch(',');
      raw(quoted_ids[i]);
    }
    ch(']');
  }
  void number_map(const std::vector<std::string>& ids, const double* values) {
    ch('{');
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i) ch(',');
      raw(ids[i]);
      ch(':');
      num(values[i]);
    }
    ch('}');
  }
  // A block the document writer already knows (policies: small, and free-form enough to keep one
  // implementation of their rules).
  void document_block(const nlohmann::ordered_json& v, Status (*write)(ObjectWriter&, const ojson&)) {
    ObjectWriter w;
    if (!write(w, v)) {
      ok_ = false;
      return;
    }
    raw(w.out().text());
  }

  // One object of `Table`, its fields in the table's order: value(field, key) writes the value of the
  // field at the constant index field(). A required field's key is already written and its value
  // must follow; an optional field calls key() first when it applies, and writes nothing when it
  // does not. Keys, with "{" or "," before them, are compile-time literals.
  template <const auto& Table, class Value>
  void object(Value&& value) {
    static_assert(Table[0].presence == layout::Presence::required, "an object opens with a required field");
    layout::for_each_field<Table>([&](auto field) {
      constexpr std::size_t i = decltype(field)::value;
      constexpr auto& text = kKeyText<Table, i>;
      const auto key = [&] { fixed<text.size()>(text.data()); };
      if constexpr (Table[i].presence == layout::Presence::required) {
        key();
        value(field, [] {});
      } else {
        value(field, key);
      }
    });
    ch('}');
  }

  void fixture_status();
  void metadata();
  void topology();
  void unit_order();
  void topology_parameter(std::size_t k);
  template <class Key>
  bool optimizer_config(Key&& block_key);
  void batch();
  void forward_map(const engine::ForwardValues& f, bool with_status);
  void per_sample();
  void sample_loss(const double* per_output, double total);
  void loss();
  void post_update_loss();
  void backward();
  void output_signal(std::size_t u);
  void dual_form(std::size_t u);
  void jacobian_term(std::size_t u, std::size_t j);
  void hidden_signal(std::size_t h);
  void downstream_contribution(std::size_t h, std::size_t o);
  template <class From>
  void named_factor(std::string_view name, double value, From&& from);
  void named_factor(std::string_view name, double value);
  void updates();
  void update(const engine::UpdateRecord& u);
  void update_optimizer(const engine::UpdateRecord& u);
  void gradient_factors(std::size_t k);
  void state(const engine::OptimizerState& s);

  const GeneralReceipt& r_;
  const topology::Topology& t_;
  Sink& out_;
  std::vector<std::string> in_, hid_, outs_, params_;
  std::string opt_name_;  // the optimizer's name, quoted once
  std::string scratch_;
  char buf_[kChunk];  // not initialized: written before read
  char* p_ = buf_;
  bool ok_ = true;
};

bool Writer::receipt() {
  const auto& b = r_.input->base;
  object<kGeneralReceipt>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kGeneralReceipt;
    switch (field()) {
      case slot(F, "schema_version"): str(r_.schema_version); return true;
      case slot(F, "fixture"): str(r_.fixture); return true;
      case slot(F, "step"): integer(b.step_index.value_or(0) + 1); return true;
      case slot(F, "fixture_status"): fixture_status(); return true;
      case slot(F, "metadata"): metadata(); return true;
      case slot(F, "numeric_policy"): document_block(b.numeric_policy.json, write_numeric_policy<ojson>); return true;
      case slot(F, "bias_policy"): document_block(b.bias_policy.json, write_bias_policy<ojson>); return true;
      case slot(F, "topology"): topology(); return true;
      case slot(F, "learning_rate"): num(b.learning_rate); return true;
      case slot(F, "optimizer_config"): return !r_.batched() && optimizer_config(key);
      case slot(F, "trace_id"):
        if (!b.trace_id) return false;
        key();
        str(*b.trace_id);
        return true;
      case slot(F, "step_index"):
        if (!b.step_index) return false;
        key();
        integer(*b.step_index);
        return true;
      case slot(F, "batch"):
        if (!r_.batched()) return false;
        key();
        batch();
        return true;
      case slot(F, "inputs"): number_map(in_, r_.inputs()); return true;
      case slot(F, "targets"): number_map(outs_, r_.targets()); return true;
      case slot(F, "parameters_before"): number_map(params_, b.parameters_before.data()); return true;
      case slot(F, "per_sample"):
        if (!r_.batched()) return false;
        key();
        per_sample();
        return true;
      case slot(F, "forward"): forward_map(r_.core.fwd, false); return true;
      case slot(F, "loss"): loss(); return true;
      case slot(F, "backward"): backward(); return true;
      case slot(F, "updates"): updates(); return true;
      case slot(F, "parameters_after"): number_map(params_, r_.parameters_after.data()); return true;
      case slot(F, "post_update_forward"): forward_map(r_.post_forward, true); return true;
      case slot(F, "post_update_loss"): post_update_loss(); return true;
      default: return false;  // source_framework, attestor: imported receipts only
    }
  });
  ch('\n');
  flush();
  return ok_;
}

void Writer::fixture_status() {
  object<kFixtureStatus>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kFixtureStatus;
    switch (field()) {
      case slot(F, "authoring_state"): lit("\"engine_generated\""); return true;
      case slot(F, "verification_state"): lit("\"engine_reproduced_byte_equal\""); return true;
      case slot(F, "canonical"): lit("true"); return true;
      default: return false;
    }
  });
}

// The input's metadata, or the general engine's default when it has none.
void Writer::metadata() {
  const auto& m = r_.input->base.metadata;
  object<kGeneralMetadata>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kGeneralMetadata;
    switch (field()) {
      case slot(F, "source"):
        if (m) str(m->source);
        else lit("\"src/general-engine.ts (generalized backprop engine first-run)\"");
        return true;
      case slot(F, "url_reference"):
        if (!m || !m->url_reference) return false;
        key();
        str(*m->url_reference);
        return true;
      case slot(F, "gradient_convention"):
        if (m) str(m->gradient_convention);
        else lit("\"descent_direction\"");
        return true;
      default: return false;
    }
  });
}

void Writer::topology() {
  object<kGeneralTopology>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kGeneralTopology;
    switch (field()) {
      case slot(F, "layers"): lit("[\"input\",\"hidden\",\"output\"]"); return true;
      case slot(F, "input_size"): integer(t_.input_size); return true;
      case slot(F, "hidden_size"): integer(t_.hidden_size); return true;
      case slot(F, "output_size"): integer(t_.output_size); return true;
      case slot(F, "unit_order"): unit_order(); return true;
      case slot(F, "parameter_order"): string_array(params_); return true;
      case slot(F, "parameters"):
        ch('[');
        for (std::size_t k = 0; k < t_.parameters.size(); ++k) {
          if (k) ch(',');
          topology_parameter(k);
        }
        ch(']');
        return true;
      case slot(F, "activation_hidden"): str(to_string(t_.activation_hidden)); return true;
      case slot(F, "activation_output"): str(to_string(t_.activation_output)); return true;
      case slot(F, "loss"): str(to_string(t_.loss)); return true;
      case slot(F, "bias_sharing"): str(to_string(t_.bias_sharing)); return true;
      default: return false;
    }
  });
}

void Writer::unit_order() {
  object<kUnitOrder>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kUnitOrder;
    switch (field()) {
      case slot(F, "input"): string_array(in_); return true;
      case slot(F, "hidden"): string_array(hid_); return true;
      case slot(F, "output"): string_array(outs_); return true;
      default: return false;
    }
  });
}

void Writer::topology_parameter(std::size_t k) {
  const auto& p = t_.parameters[k];
  object<kTopologyParameter>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kTopologyParameter;
    switch (field()) {
      case slot(F, "id"): raw(params_[k]); return true;  // parameters[k].id == parameter_order[k]
      case slot(F, "role"): str(to_string(p.role)); return true;
      case slot(F, "from_unit"):
        if (!p.from_unit) return false;
        key();
        str(*p.from_unit);
        return true;
      case slot(F, "to_unit"):
        if (!p.to_unit) return false;
        key();
        str(*p.to_unit);
        return true;
      case slot(F, "applies_to_units"):
        if (!p.applies_to_units) return false;
        key();
        ch('[');
        for (std::size_t i = 0; i < p.applies_to_units->size(); ++i) {
          if (i) ch(',');
          str((*p.applies_to_units)[i]);
        }
        ch(']');
        return true;
      default: return false;
    }
  });
}

// Mirrors the document form: plain SGD writes no block unless coupled L2 is on; nesterov only when
// true, dampening only when non-zero. False when no block is written.
template <class Key>
bool Writer::optimizer_config(Key&& block_key) {
  const auto& oc = r_.input->optimizer;
  if (!oc) return false;
  using engine::OptimizerName;
  const bool decay = oc->weight_decay.value_or(0.0) != 0;
  if (oc->name == OptimizerName::sgd && !decay) return false;
  block_key();
  const bool adam = oc->name == OptimizerName::adam || oc->name == OptimizerName::adamw;
  const bool momentum = oc->name == OptimizerName::sgd_momentum;
  object<kOptimizerConfig>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kOptimizerConfig;
    const auto optional = [&](bool applies, const std::optional<double>& v) {
      if (!applies) return false;
      key();
      num(*v);
      return true;
    };
    switch (field()) {
      case slot(F, "name"): str(engine::to_string(oc->name)); return true;
      case slot(F, "learning_rate"): num(oc->learning_rate); return true;
      case slot(F, "beta1"): return optional(adam, oc->beta1);
      case slot(F, "beta2"): return optional(adam, oc->beta2);
      case slot(F, "epsilon"): return optional(adam, oc->epsilon);
      case slot(F, "weight_decay"): return optional(adam ? oc->name == OptimizerName::adamw : decay, oc->weight_decay);
      case slot(F, "t"):
        if (!adam) return false;
        key();
        integer(*oc->t);
        return true;
      case slot(F, "momentum"): return optional(momentum, oc->momentum);
      case slot(F, "nesterov"):
        if (!momentum || !oc->nesterov.value_or(false)) return false;
        key();
        lit("true");
        return true;
      case slot(F, "dampening"): return optional(momentum && oc->dampening.value_or(0.0) != 0, oc->dampening);
      default: return false;
    }
  });
  return true;
}

void Writer::batch() {
  const engine::Batch& batch = *r_.input->batch;
  object<kBatch>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kBatch;
    switch (field()) {
      case slot(F, "size"): integer(static_cast<std::int64_t>(batch.samples.size())); return true;
      case slot(F, "sample_order"):
        ch('[');
        for (std::size_t s = 0; s < batch.samples.size(); ++s) {
          if (s) ch(',');
          str(batch.samples[s].id);
        }
        ch(']');
        return true;
      case slot(F, "reduction"): str(engine::to_string(batch.reduction)); return true;
      default: return false;
    }
  });
}

void Writer::forward_map(const engine::ForwardValues& f, bool with_status) {
  ch('{');
  if (with_status) lit("\"status\":\"filled\",");
  const auto unit = [&](const std::string& id, double net, double out) {
    raw(id);
    ch(':');
    object<kForwardUnit>([&](auto field, [[maybe_unused]] auto key) -> bool {
      constexpr auto& F = kForwardUnit;
      switch (field()) {
        case slot(F, "net"): num(net); return true;
        case slot(F, "out"): num(out); return true;
        default: return false;
      }
    });
  };
  for (std::size_t h = 0; h < hid_.size(); ++h) {
    if (h) ch(',');
    unit(hid_[h], f.net_h[h], f.out_h[h]);
  }
  for (std::size_t o = 0; o < outs_.size(); ++o) {
    if (o || !hid_.empty()) ch(',');
    unit(outs_[o], f.net_o[o], f.out_o[o]);
  }
  ch('}');
}

void Writer::per_sample() {
  const engine::Batch& batch = *r_.input->batch;
  ch('{');
  for (std::size_t s = 0; s < batch.samples.size(); ++s) {
    const engine::Sample& smp = batch.samples[s];
    const engine::SampleRecord& rec = r_.samples[s];
    if (s) ch(',');
    str(smp.id);
    ch(':');
    object<kPerSampleEntry>([&](auto field, [[maybe_unused]] auto key) -> bool {
      constexpr auto& F = kPerSampleEntry;
      switch (field()) {
        case slot(F, "inputs"): number_map(in_, smp.inputs.data()); return true;
        case slot(F, "targets"): number_map(outs_, smp.targets.data()); return true;
        case slot(F, "forward"): forward_map(rec.forward, false); return true;
        case slot(F, "loss"): sample_loss(rec.loss_per_output.data(), rec.loss_total); return true;
        default: return false;
      }
    });
  }
  ch('}');
}

// {per_output, total}: a sample's loss, and the single-sample receipt's.
void Writer::sample_loss(const double* per_output, double total) {
  object<kMazurLoss>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kMazurLoss;
    switch (field()) {
      case slot(F, "per_output"): number_map(outs_, per_output); return true;
      case slot(F, "total"): num(total); return true;
      default: return false;
    }
  });
}

void Writer::loss() {
  if (!r_.batched()) {
    sample_loss(r_.core.loss_o.data(), r_.core.loss_total);
    return;
  }
  const engine::Batch& batch = *r_.input->batch;
  object<kGeneralLoss>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kGeneralLoss;
    switch (field()) {
      case slot(F, "per_output"): number_map(outs_, r_.reduced_loss_per_output.data()); return true;
      case slot(F, "per_sample"):
        key();
        ch('{');
        for (std::size_t s = 0; s < batch.samples.size(); ++s) {
          if (s) ch(',');
          str(batch.samples[s].id);
          ch(':');
          num(r_.samples[s].loss_total);
        }
        ch('}');
        return true;
      case slot(F, "reduction"):
        key();
        str(engine::to_string(batch.reduction));
        return true;
      case slot(F, "total"): num(r_.reduced_loss_total); return true;
      default: return false;
    }
  });
}

void Writer::post_update_loss() {
  object<kPostUpdateLoss>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kPostUpdateLoss;
    switch (field()) {
      case slot(F, "status"): lit("\"filled\""); return true;
      case slot(F, "per_output"): number_map(outs_, r_.post_loss_per_output.data()); return true;
      case slot(F, "total"): num(r_.post_loss_total); return true;
      default: return false;
    }
  });
}

// A named factor: `name` is a JSON string literal, quotes included; `from` is written by the
// caller's callback when it returns true.
template <class From>
void Writer::named_factor(std::string_view name, double value, From&& from) {
  object<kNamedFactor>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kNamedFactor;
    switch (field()) {
      case slot(F, "name"): lit(name); return true;
      case slot(F, "from"): return from(key);
      case slot(F, "value"): num(value); return true;
      default: return false;
    }
  });
}

void Writer::named_factor(std::string_view name, double value) {
  named_factor(name, value, [](auto&) { return false; });
}

void Writer::jacobian_term(std::size_t u, std::size_t j) {
  const engine::StepCore& c = r_.core;
  const std::size_t n_out = outs_.size();
  object<kJacobianTerm>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kJacobianTerm;
    switch (field()) {
      case slot(F, "target_unit"): raw(outs_[j]); return true;
      case slot(F, "factors"):
        ch('[');
        named_factor("\"y_j\"", r_.targets()[j], [&](auto& key) {
        key();
          lit("\"targets.");
          unquoted(outs_[j]);
          ch('"');
          return true;
        });
        ch(',');
        named_factor("\"delta_ju_minus_p_u\"", c.dual_delta_minus_p[u * n_out + j]);
        ch(']');
        return true;
      case slot(F, "term_value"): num(c.dual_term[u * n_out + j]); return true;
      default: return false;
    }
  });
}

void Writer::dual_form(std::size_t u) {
  object<kDualForm>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kDualForm;
    switch (field()) {
      case slot(F, "jacobian_terms"):
        ch('[');
        for (std::size_t j = 0; j < outs_.size(); ++j) {
          if (j) ch(',');
          jacobian_term(u, j);
        }
        ch(']');
        return true;
      case slot(F, "product_order"): lit("\"left_to_right\""); return true;
      case slot(F, "summation_order"): string_array(outs_); return true;
      case slot(F, "summed_value"): num(r_.core.dual_sum[u]); return true;
      default: return false;
    }
  });
}

void Writer::output_signal(std::size_t u) {
  const engine::StepCore& c = r_.core;
  const bool softmax = t_.loss == topology::Loss::cross_entropy_softmax;
  object<kOutputErrorSignal>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kOutputErrorSignal;
    switch (field()) {
      case slot(F, "factors"):
        ch('[');
        if (softmax) {
          named_factor("\"target_minus_probability\"", c.sig_o[u]);
        } else {
          named_factor("\"target_minus_output\"", c.tmo[u]);
          ch(',');
          named_factor("\"activation_derivative\"", c.ad_o[u]);
        }
        ch(']');
        return true;
      case slot(F, "product_order"): lit("\"left_to_right\""); return true;
      case slot(F, "signal_value"): num(c.sig_o[u]); return true;
      case slot(F, "dual_form"):
        if (!softmax) return false;
        key();
        dual_form(u);
        return true;
      default: return false;
    }
  });
}

void Writer::downstream_contribution(std::size_t h, std::size_t o) {
  const engine::StepCore& c = r_.core;
  const auto& ix = r_.index;
  const std::uint32_t w = ix.w_ho[o * ix.n_hid + h];
  object<kDownstreamContribution>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kDownstreamContribution;
    switch (field()) {
      case slot(F, "from"): raw(outs_[o]); return true;
      case slot(F, "downstream_signal"): num(c.sig_o[o]); return true;
      case slot(F, "via_weight"): raw(params_[w]); return true;
      case slot(F, "weight_value"): num(r_.input->base.parameters_before[w]); return true;
      case slot(F, "value"): num(c.contrib[h * outs_.size() + o]); return true;
      default: return false;
    }
  });
}

void Writer::hidden_signal(std::size_t h) {
  const engine::StepCore& c = r_.core;
  object<kHiddenErrorSignal>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kHiddenErrorSignal;
    switch (field()) {
      case slot(F, "downstream_contributions"):
        ch('[');
        for (std::size_t o = 0; o < outs_.size(); ++o) {
          if (o) ch(',');
          downstream_contribution(h, o);
        }
        ch(']');
        return true;
      case slot(F, "summation_order"): string_array(outs_); return true;
      case slot(F, "backpropagated_sum"): num(c.bsum_h[h]); return true;
      case slot(F, "activation_derivative"): num(c.ad_h[h]); return true;
      case slot(F, "product_order"): lit("\"left_to_right\""); return true;
      case slot(F, "signal_value"): num(c.sig_h[h]); return true;
      default: return false;
    }
  });
}

void Writer::backward() {
  object<kBackward>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kBackward;
    switch (field()) {
      case slot(F, "output_error_signals"):
        ch('{');
        for (std::size_t u = 0; u < outs_.size(); ++u) {
          if (u) ch(',');
          raw(outs_[u]);
          ch(':');
          output_signal(u);
        }
        ch('}');
        return true;
      case slot(F, "hidden_error_signals"):
        ch('{');
        for (std::size_t h = 0; h < hid_.size(); ++h) {
          if (h) ch(',');
          raw(hid_[h]);
          ch(':');
          hidden_signal(h);
        }
        ch('}');
        return true;
      default: return false;
    }
  });
}

// The gradient's factors: the downstream unit's error signal, and for weights the upstream activation.
// Their "from" paths are spelled from the cached quoted ids (escaping a concatenation of ASCII text
// and an id equals concatenating the escaped pieces).
void Writer::gradient_factors(std::size_t k) {
  const topology::ParameterSlot& s = r_.index.slots[k];
  const engine::StepCore& c = r_.core;
  const auto signal = [&](bool hidden, std::uint32_t unit) {
    named_factor(hidden ? "\"hidden_error_signal\"" : "\"output_error_signal\"", hidden ? c.sig_h[unit] : c.sig_o[unit],
                 [&](auto& key) {
                   key();
                   lit(hidden ? "\"backward.hidden_error_signals." : "\"backward.output_error_signals.");
                   unquoted(hidden ? hid_[unit] : outs_[unit]);
                   lit(".signal_value\"");
                   return true;
                 });
  };
  switch (s.role) {
    case Role::input_to_hidden_weight:
      signal(true, s.to);
      ch(',');
      named_factor("\"upstream_activation\"", r_.inputs()[s.from], [&](auto& key) {
        key();
        lit("\"inputs.");
        unquoted(in_[s.from]);
        ch('"');
        return true;
      });
      break;
    case Role::hidden_to_output_weight:
      signal(false, s.to);
      ch(',');
      named_factor("\"upstream_activation\"", c.fwd.out_h[s.from], [&](auto& key) {
        key();
        lit("\"forward.");
        unquoted(hid_[s.from]);
        lit(".out\"");
        return true;
      });
      break;
    case Role::hidden_bias: signal(true, s.from); break;
    case Role::output_bias: signal(false, s.from); break;
  }
}

void Writer::state(const engine::OptimizerState& s) {
  if (r_.input->optimizer->name == engine::OptimizerName::sgd_momentum) {
    object<kMomentumState>([&](auto field, [[maybe_unused]] auto key) -> bool {
      constexpr auto& F = kMomentumState;
      switch (field()) {
        case slot(F, "buffer"): num(s.buffer); return true;
        default: return false;
      }
    });
    return;
  }
  object<kAdamState>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kAdamState;
    switch (field()) {
      case slot(F, "m"): num(s.m); return true;
      case slot(F, "v"): num(s.v); return true;
      default: return false;
    }
  });
}

void Writer::update_optimizer(const engine::UpdateRecord& u) {
  object<kGeneralOptimizer>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kGeneralOptimizer;
    switch (field()) {
      case slot(F, "name"): raw(opt_name_); return true;
      case slot(F, "learning_rate"): num(r_.input->base.learning_rate); return true;
      case slot(F, "factors"):
        ch('[');
        if (r_.batched()) named_factor("\"batch_reduced_gradient\"", u.gradient);
        else gradient_factors(u.slot);
        ch(']');
        return true;
      case slot(F, "product_order"): lit("\"left_to_right\""); return true;
      case slot(F, "state_before"):
        if (!r_.stateful) return false;
        key();
        state(u.state_before);
        return true;
      case slot(F, "state_after"):
        if (!r_.stateful) return false;
        key();
        state(u.state_after);
        return true;
      default: return false;
    }
  });
}

// The slot resolved the parameter's units to layer positions: the cached ids are its strings.
void Writer::update(const engine::UpdateRecord& u) {
  const topology::ParameterSlot& s = r_.index.slots[u.slot];
  const bool bias = s.role == Role::hidden_bias || s.role == Role::output_bias;
  const bool ih = s.role == Role::input_to_hidden_weight;
  const std::string& from = bias ? (s.role == Role::hidden_bias ? hid_[s.from] : outs_[s.from])
                                 : (ih ? in_[s.from] : hid_[s.from]);
  const std::string& to = bias ? from : (ih ? hid_[s.to] : outs_[s.to]);
  object<kUpdate>([&](auto field, [[maybe_unused]] auto key) -> bool {
    constexpr auto& F = kUpdate;
    switch (field()) {
      case slot(F, "parameter_id"): raw(params_[u.slot]); return true;
      case slot(F, "kind"): lit(bias ? "\"bias\"" : "\"weight\""); return true;
      case slot(F, "layer_edge"):
        lit(bias ? "\"bias_to_layer\"" : ih ? "\"input_to_hidden\"" : "\"hidden_to_output\"");
        return true;
      case slot(F, "parameter_role"):
        if (bias) {
          str(to_string(s.role));
        } else {
          ch('"');
          unquoted(from);
          lit("_to_");
          unquoted(to);
          ch('"');
        }
        return true;
      case slot(F, "from_unit"): raw(from); return true;
      case slot(F, "to_unit"): raw(to); return true;
      case slot(F, "weight_before"): num(u.weight_before); return true;
      case slot(F, "optimizer"): update_optimizer(u); return true;
      case slot(F, "gradient"): num(u.gradient); return true;
      case slot(F, "update"): num(u.update); return true;
      case slot(F, "weight_after"): num(u.weight_after); return true;
      default: return false;
    }
  });
}

void Writer::updates() {
  ch('[');
  for (std::size_t i = 0; i < r_.updates.size(); ++i) {
    if (i) ch(',');
    update(r_.updates[i]);
  }
  ch(']');
}

}  // namespace

common::Status append_receipt_line(std::string& out, const GeneralReceipt& receipt) {
  const std::size_t mark = out.size();
  Sink sink(out);
  if (Writer(receipt, sink).receipt()) return {};
  // Some number is outside the canonical range: the document path names where.
  out.resize(mark);
  auto line = emit_receipt_line(engine::to_json(receipt));
  if (!line) return line.error();
  out.append(*line);
  return {};
}

std::optional<std::string> emit_receipt_labels(const GeneralReceipt& receipt) {
  std::string out;
  Sink sink(out);
  if (!Writer(receipt, sink, true).receipt()) return std::nullopt;
  return out;
}

common::Result<std::string> emit_receipt_line(const GeneralReceipt& receipt) {
  std::string out;
  if (auto s = append_receipt_line(out, receipt); !s) return s.error();
  return out;
}

bool emits_exactly(const std::vector<engine::EngineReceipt>& receipts, std::string_view expected) {
  std::size_t at = 0;
  for (const auto& receipt : receipts) {
    if (const auto* general = std::get_if<GeneralReceipt>(&receipt)) {
      Sink sink(expected.substr(at));
      if (!Writer(*general, sink).receipt() || sink.differs()) return false;
      at += sink.consumed();
    } else {
      auto line = emit_receipt_line(std::get<nlohmann::ordered_json>(receipt));
      if (!line || expected.substr(at, line->size()) != *line) return false;
      at += line->size();
    }
  }
  return at == expected.size();
}

common::Result<std::string> emit_receipts(const std::vector<engine::EngineReceipt>& receipts, std::size_t expected_bytes) {
  std::string out;
  out.reserve(expected_bytes);
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
