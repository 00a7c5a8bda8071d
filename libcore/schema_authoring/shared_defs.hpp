#pragma once
// Definitions that receipts, framework traces and topology inputs have in common.
// The families differ in two habits, captured by Style: receipts record every
// object's key order ("x-order"), and traces -- written by foreign extractors --
// bound their collections so a hostile file cannot make us allocate without limit.
#include "schema_authoring/node.hpp"

namespace schema_authoring {

struct Style {
  bool ordered = true;   // objects carry "x-order"
  bool bounded = false;  // collections carry maxItems / maxProperties
};
inline constexpr Style kReceiptStyle{true, false};
inline constexpr Style kTraceStyle{false, true};
inline constexpr int kTraceCollectionLimit = 4096;

// Style-dependent finishing touches.
Node shaped(Node object_node, Style style);  // + x-order when the style orders objects
Node capped_list(Node array_node, Style style);
Node capped_map(Node map_node, Style style);

// Leaf vocabularies.
Node identifier();     // unit / parameter / sample names
Node sha256_digest();  // "sha256:<64 hex>"
Node trace_id();       // 32 lowercase hex digits
Node step_index();     // 0-based
Node learning_rate();  // > 0
Node left_to_right();  // product_order
Node reduction();      // mean | sum | none
Node pending_or_filled();

// $defs of the general (any-topology) formats.
Node unit_order();
Node parameter_order();
Node numeric_policy(Style style);
Node bias_policy(Style style);
Node general_topology(Style style);       // as of receipt v0.2.0: sigmoid / identity / relu, squared error
void add_softmax_output(Node& topology);  // receipt v0.3.0: softmax output with cross-entropy loss
Node number_map(Style style);             // UnitNumberMap, ParameterMap
Node forward_map(Style style);
Node forward_unit(Style style);
Node loss(Style style);             // per_output + total
void add_batched_loss(Node& loss);  // per_sample + reduction
Node backward(Style style);
Node output_error_signal(Style style);
void add_dual_form(Node& output_error_signal);  // receipt v0.3.0
Node dual_form(Style style);
Node jacobian_term(Style style);
Node hidden_error_signal(Style style);
Node downstream_contribution(Style style);
Node named_factor(Style style);
Node update(Style style);  // SGD only, as before optimizers arrived
Node batch();
Node per_sample_results();  // sample id -> its inputs, targets, forward, loss

}  // namespace schema_authoring
