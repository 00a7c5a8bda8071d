#pragma once
// The tables of receipt/layout/fields.hpp as the document emitter walks them: each names the
// schema $defs entry whose "x-order" it follows, so a test can hold the two together
// (tests/receipt/emit/field_layout_test.cpp).
#include <span>
#include <string_view>

#include "receipt/layout/fields.hpp"

namespace receipt::emit {

using layout::Field;
using layout::FieldKind;
using layout::Presence;

struct Layout {
  std::string_view schema_def;  // "$defs" name, "" for the receipt itself, "-" when no schema def matches
  std::span<const Field> fields;
};

// Layouts of the v0.1.0 (Mazur) receipt and of every later (general) receipt.
namespace mazur {
extern const Layout receipt, fixture_status, metadata, numeric_policy, byte_output, bias_policy, topology, inputs,
    targets, parameters, forward, forward_unit, loss, per_output, backward, output_signals, hidden_signals,
    output_error_signal, dual_form, jacobian_term, hidden_error_signal, downstream_contribution, named_factor, update,
    optimizer, post_update_forward, post_update_loss;
}  // namespace mazur

namespace general {
extern const Layout receipt, fixture_status, source_framework, extractor, attestor, attestor_identity, tolerance,
    import_provenance, metadata, numeric_policy, byte_output, bias_policy, topology, unit_order, topology_parameter,
    optimizer_config, batch, forward_unit, loss, backward, output_error_signal, dual_form, jacobian_term,
    hidden_error_signal, downstream_contribution, named_factor, update, optimizer, adam_state, momentum_state,
    post_update_loss, per_sample_entry, per_sample_loss;
}  // namespace general

// Every layout above, for tests.
std::span<const Layout* const> mazur_layouts();
std::span<const Layout* const> general_layouts();

}  // namespace receipt::emit
