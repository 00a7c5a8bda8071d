// The v0.1.0 receipt: the 2-2-2 Mazur network with fixed unit and parameter names.
#include "receipt/emit/sections.hpp"

namespace receipt::emit {
namespace {

Status write_forward(ObjectWriter& w, const ojson& f, const Layout& layout) {
  return w.object(f, layout, [&w](std::string_view key, const ojson& u) -> Status {
    (void)key;  // every nested field of these layouts is a ForwardUnit
    return write_forward_unit(w, u);
  });
}

Status write_loss(ObjectWriter& w, const ojson& l, const Layout& layout) {
  return w.object(l, layout, [&w](std::string_view, const ojson& per_output) {
    return w.object(per_output, mazur::per_output);
  });
}

Status write_backward(ObjectWriter& w, const ojson& b) {
  return w.object(b, mazur::backward, [&w](std::string_view key, const ojson& signals) -> Status {
    if (key == "output_error_signals") {
      return w.object(signals, mazur::output_signals,
                      [&w](std::string_view, const ojson& s) { return write_output_error_signal(w, s); });
    }
    return w.object(signals, mazur::hidden_signals,
                    [&w](std::string_view, const ojson& s) { return write_hidden_error_signal(w, s); });
  });
}

Status write_mazur_updates(ObjectWriter& w, const ojson& updates) {
  return w.array(updates, [&w](const ojson& u) {
    return w.object(u, mazur::update, [&w](std::string_view, const ojson& optimizer) {
      return w.object(optimizer, mazur::optimizer,
                      [&w](std::string_view, const ojson& factors) { return write_named_factors(w, factors); });
    });
  });
}

}  // namespace

Status write_mazur_receipt(ObjectWriter& w, const ojson& r) {
  return w.object(r, mazur::receipt, [&w](std::string_view key, const ojson& v) -> Status {
    if (key == "fixture_status") return w.object(v, mazur::fixture_status);
    if (key == "metadata") return w.object(v, mazur::metadata);
    if (key == "numeric_policy") {
      return w.object(v, mazur::numeric_policy, [&w](std::string_view k, const ojson& x) -> Status {
        if (k == "tolerance") return w.scalar(x, FieldKind::number);
        return w.object(x, mazur::byte_output);
      });
    }
    if (key == "bias_policy") return w.object(v, mazur::bias_policy);
    if (key == "topology") return w.object(v, mazur::topology);
    if (key == "inputs") return w.object(v, mazur::inputs);
    if (key == "targets") return w.object(v, mazur::targets);
    if (key == "parameters_before" || key == "parameters_after") return w.object(v, mazur::parameters);
    if (key == "forward") return write_forward(w, v, mazur::forward);
    if (key == "loss") return write_loss(w, v, mazur::loss);
    if (key == "backward") return write_backward(w, v);
    if (key == "updates") return write_mazur_updates(w, v);
    if (key == "post_update_forward") return write_forward(w, v, mazur::post_update_forward);
    return write_loss(w, v, mazur::post_update_loss);
  });
}

}  // namespace receipt::emit
