#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

Node shaped(Node object_node, Style style) {
  if (style.ordered) object_node.ordered();
  return object_node;
}
Node capped_list(Node array_node, Style style) {
  if (style.bounded) array_node.max_items(kTraceCollectionLimit);
  return array_node;
}
Node capped_map(Node map_node, Style style) {
  if (style.bounded) map_node.max_properties(kTraceCollectionLimit);
  return map_node;
}

Node identifier() { return string().pattern("^[a-zA-Z][a-zA-Z0-9_]*$"); }
Node sha256_digest() { return string().pattern("^sha256:[0-9a-f]{64}$"); }
Node trace_id() { return string().pattern("^[0-9a-f]{32}$"); }
Node step_index() { return integer().min(0); }
Node learning_rate() { return number().above(0); }
Node left_to_right() { return constant("left_to_right"); }
Node reduction() { return one_of_values({"mean", "sum", "none"}); }
Node pending_or_filled() { return one_of_values({"pending_engine_first_run", "filled"}); }

Node unit_order() {
  return object()
      .field("input", array(identifier()).min_items(1))
      .field("hidden", array(identifier()).min_items(1))
      .field("output", array(identifier()).min_items(1))
      .closed()
      .describe("Unit names per layer, in the order every per-unit computation visits them.");
}

Node parameter_order() {
  return array(identifier()).min_items(1).unique().describe("Parameter names in update order; no repeats.");
}

Node numeric_policy(Style style) {
  Node atol_rtol =
      object().field("atol", number().min(0).max(1e-05)).field("rtol", number().min(0).max(0.001)).closed();
  Node byte_output = shaped(object()
                                .optional("format", constant("jsonl"))
                                .optional("json_key_order", constant("schema_defined"))
                                .optional("trailing_zero_policy", constant("pad_to_significant_digits"))
                                .optional("indent", constant("none"))
                                .closed(),
                            style);
  return shaped(object()
                    .field("number_encoding", constant("decimal"))
                    .field("precision_significant_digits", integer().min(1))
                    .field("rounding", constant("round_half_to_even"))
                    .field("tolerance", anything().one_of({atol_rtol, number().min(0).max(1e-05)}))
                    .optional("computation_order", constant("schema_defined"))
                    .optional("byte_output", byte_output)
                    .closed(),
                style)
      .describe("How numbers are written and how closely recomputed values must agree.");
}

Node bias_policy(Style style) {
  return shaped(object()
                    .field("mode", one_of_values({"constant", "sgd"}))
                    .optional("reason", string())
                    .field("updated_in_step", boolean())
                    .optional("reconciliation", string())
                    .closed(),
                style);
}

Node general_topology(Style style) {
  Node parameter =
      object()
          .field("id", identifier())
          .field("role",
                 one_of_values({"input_to_hidden_weight", "hidden_to_output_weight", "hidden_bias", "output_bias"}))
          .optional("from_unit", identifier())
          .optional("to_unit", identifier())
          .optional("applies_to_units", array(identifier()))
          .closed();
  const auto activation = [] { return one_of_values({"sigmoid", "identity", "relu"}); };
  return shaped(object()
                    .field("layers", array(string()))
                    .field("input_size", integer().min(1).max(64))
                    .field("hidden_size", integer().min(1).max(64))
                    .field("output_size", integer().min(1).max(64))
                    .field("unit_order", ref("UnitOrder"))
                    .field("parameter_order", ref("ParameterOrder"))
                    .field("parameters", array(parameter).min_items(1))
                    .field("activation_hidden", activation())
                    .field("activation_output", activation())
                    .field("loss", one_of_values({"half_squared_error"}))
                    .field("bias_sharing", one_of_values({"per_layer", "per_neuron"}))
                    .closed(),
                style)
      .describe("A fully connected network with one hidden layer, every unit and parameter named.");
}

void add_softmax_output(Node& topology) {
  topology.replace("activation_output", one_of_values({"sigmoid", "identity", "relu", "softmax"}));
  topology.replace("loss", one_of_values({"half_squared_error", "cross_entropy_softmax"}));
}

Node number_map(Style style) { return capped_map(map_of(number()), style); }
Node forward_map(Style style) { return capped_map(map_of(ref("ForwardUnit")), style); }

Node forward_unit(Style style) {
  return shaped(object().field("net", number()).field("out", number()).closed(), style)
      .describe("A unit's pre-activation sum and its activation.");
}

Node loss(Style style) {
  return shaped(object().field("per_output", number_map(style)).field("total", number()).closed(), style);
}

void add_batched_loss(Node& loss) {
  loss.optional_after("per_output", "per_sample", map_of(number()));
  loss.optional_after("per_sample", "reduction", reduction());
}

Node backward(Style style) {
  return shaped(object()
                    .field("output_error_signals", map_of(ref("OutputErrorSignal")))
                    .field("hidden_error_signals", map_of(ref("HiddenErrorSignal")))
                    .closed(),
                style);
}

Node output_error_signal(Style style) {
  return shaped(object()
                    .field("factors", capped_list(array(ref("NamedFactor")).min_items(1), style))
                    .field("product_order", left_to_right())
                    .field("signal_value", number())
                    .closed(),
                style);
}

void add_dual_form(Node& output_error_signal) { output_error_signal.optional("dual_form", ref("DualForm")); }

Node dual_form(Style style) {
  return shaped(object()
                    .field("jacobian_terms", array(ref("JacobianTerm")).min_items(1))
                    .field("product_order", left_to_right())
                    .field("summation_order", capped_list(array(string()).min_items(1), style))
                    .field("summed_value", number())
                    .closed(),
                style)
      .describe("The output signal written as a sum over the loss Jacobian's terms (softmax with cross-entropy).");
}

Node jacobian_term(Style style) {
  return shaped(object()
                    .field("target_unit", identifier())
                    .field("factors", capped_list(array(ref("NamedFactor")).min_items(1), style))
                    .field("term_value", number())
                    .closed(),
                style);
}

Node hidden_error_signal(Style style) {
  return shaped(object()
                    .field("downstream_contributions", array(ref("DownstreamContribution")).min_items(1))
                    .field("summation_order", capped_list(array(string()).min_items(1), style))
                    .field("backpropagated_sum", number())
                    .field("activation_derivative", number())
                    .field("product_order", left_to_right())
                    .field("signal_value", number())
                    .closed(),
                style);
}

Node downstream_contribution(Style style) {
  return shaped(object()
                    .field("from", string())
                    .field("downstream_signal", number())
                    .field("via_weight", string())
                    .field("weight_value", number())
                    .field("value", number())
                    .closed(),
                style);
}

Node named_factor(Style style) {
  return shaped(object().field("name", string()).optional("from", string()).field("value", number()).closed(), style);
}

Node update(Style style) {
  Node optimizer = shaped(object()
                              .field("name", one_of_values({"sgd"}))
                              .field("learning_rate", learning_rate())
                              .field("factors", capped_list(array(ref("NamedFactor")).min_items(1), style))
                              .field("product_order", left_to_right())
                              .closed(),
                          style);
  return shaped(object()
                    .field("parameter_id", string())
                    .field("kind", one_of_values({"weight", "bias"}))
                    .optional("layer_edge", one_of_values({"input_to_hidden", "hidden_to_output", "bias_to_layer"}))
                    .optional("parameter_role", string())
                    .optional("from_unit", string())
                    .optional("to_unit", string())
                    .field("weight_before", number())
                    .field("optimizer", optimizer)
                    .field("gradient", number())
                    .field("update", number())
                    .field("weight_after", number())
                    .closed(),
                style)
      .describe("One parameter's step: the value before, the optimizer's factors, the value after.");
}

Node batch() {
  return object()
      .field("size", integer().min(1))
      .field("sample_order", array(identifier()).min_items(1).unique())
      .field("reduction", reduction())
      .closed()
      .ordered();
}

Node per_sample_results() {
  return map_of(object()
                    .field("inputs", ref("UnitNumberMap"))
                    .field("targets", ref("UnitNumberMap"))
                    .field("forward", ref("ForwardMap"))
                    .field("loss", ref("Loss"))
                    .closed());
}

}  // namespace schema_authoring
