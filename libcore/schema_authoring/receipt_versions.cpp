// The receipt format, v0.1.0 to v0.8.0. v0.1.0 is written out in full; every later
// version is the previous one plus the changes that version made, nothing else.
#include "schema_authoring/families.hpp"
#include "schema_authoring/optimizer_defs.hpp"
#include "schema_authoring/optimizer_releases.hpp"
#include "schema_authoring/optimizer_rules.hpp"
#include "schema_authoring/provenance_defs.hpp"
#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

namespace {
// Named so that a unity batch can hold both receipt_versions.cpp and framework_trace_versions.cpp,
// whose versions have the same names.
namespace receipt {

constexpr Style kStyle = kReceiptStyle;

// An object with exactly these number fields, all required (the Mazur example's
// fixed unit and parameter names).
Node named_numbers(std::initializer_list<std::string_view> names) {
  Node n = object();
  for (auto name : names) n.field(name, number());
  return n.closed().ordered();
}

Node fixture_status() {
  return object()
      .field("authoring_state", one_of_values({"hand_derived", "engine_generated", "deliberately_corrupted"}))
      .field("verification_state", one_of_values({"pending_engine_reproduction", "engine_reproduced_byte_equal",
                                                  "expected_to_fail_reconciliation"}))
      .field("canonical", boolean())
      .optional("promote_to", string())
      .optional("describes_in", string())
      .optional("blockers_to_promotion", array(string()))
      .closed()
      .ordered()
      .describe("How the fixture was made and how far it has been verified.");
}

// The next version: a copy of `prev` that names its own version.
SchemaDocument bump(const SchemaDocument& prev, std::string version, std::string changes) {
  SchemaDocument doc = prev.next(version, std::move(changes));
  doc.root().replace("schema_version", constant(version));
  return doc;
}

// Fields a hand-written fixture used while a value awaited the engine's first run.
Node pending_fill(Node n) {
  return n.field("status", pending_or_filled())
      .optional("required_before_promotion", boolean())
      .optional("fields_required", array(string()));
}

SchemaDocument v0_1_0() {
  Node root = object()
                  .field("schema_version", constant("0.1.0"))
                  .field("fixture", string())
                  .field("step", integer().min(1))
                  .field("fixture_status", ref("FixtureStatus"))
                  .optional("metadata", object())
                  .field("numeric_policy", ref("NumericPolicy"))
                  .field("bias_policy", ref("BiasPolicy"))
                  .field("topology", ref("Topology"))
                  .field("learning_rate", learning_rate())
                  .field("inputs", ref("InputsMazur"))
                  .field("targets", ref("TargetsMazur"))
                  .field("parameters_before", ref("ParametersMazur"))
                  .field("forward", ref("ForwardMazur"))
                  .field("loss", ref("Loss"))
                  .field("backward", ref("BackwardMazur"))
                  .field("updates", array(ref("Update")).min_items(1))
                  .field("parameters_after", ref("ParametersMazur"))
                  .optional("post_update_forward", ref("PostUpdateForward"))
                  .optional("post_update_loss", ref("PostUpdateLoss"))
                  .optional("unit_order", object())
                  .optional("parameter_order", array(string()))
                  .closed()
                  .ordered();
  SchemaDocument doc("receipt", "0.1.0", std::move(root));
  doc.title("Training-step receipt")
      .summary(
          "One SGD step of the 2-2-2 sigmoid network of the Mazur worked example, with fixed unit and "
          "parameter names (i1 i2, h1 h2, o1 o2, w1..w8, b1 b2).");

  Node numeric = numeric_policy(kStyle);
  numeric.replace("precision_significant_digits", constant(9)).replace("tolerance", constant(1e-09));
  Node topology = object()
                      .field("layers", array(string()))
                      .field("input_size", integer().min(1))
                      .field("hidden_size", integer().min(1))
                      .field("output_size", integer().min(1))
                      .field("activation", one_of_values({"sigmoid"}))
                      .field("loss", one_of_values({"half_squared_error"}))
                      .optional("bias_sharing", one_of_values({"per_layer", "per_neuron"}))
                      .closed()
                      .ordered();
  Node loss_mazur = loss(kStyle);
  loss_mazur.replace("per_output", named_numbers({"o1", "o2"}));
  Node output_signal = output_error_signal(kStyle);
  output_signal.replace("factors", array(ref("NamedFactor")).min_items(2));
  Node sgd_update = update(kStyle);
  sgd_update.edit("optimizer", [](Node& o) { o.replace("factors", array(ref("NamedFactor")).min_items(2)); });

  Node post_forward = pending_fill(object()).optional("fill_specification", string()).optional("note", string());
  for (auto unit : {"h1", "h2", "o1", "o2"}) post_forward.optional(unit, ref("ForwardUnit"));
  Node post_loss_per_output = object().optional("o1", number()).optional("o2", number()).closed().ordered();
  Node post_loss = pending_fill(object())
                       .optional("drift_check_against_published", object())
                       .optional("note", string())
                       .optional("per_output", post_loss_per_output)
                       .optional("total", number());

  doc.define("FixtureStatus", fixture_status())
      .define("NumericPolicy", numeric)
      .define("BiasPolicy", bias_policy(kStyle))
      .define("Topology", topology)
      .define("InputsMazur", named_numbers({"i1", "i2"}))
      .define("TargetsMazur", named_numbers({"o1", "o2"}))
      .define("ParametersMazur", named_numbers({"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "b1", "b2"}))
      .define("ForwardMazur", object()
                                  .field("h1", ref("ForwardUnit"))
                                  .field("h2", ref("ForwardUnit"))
                                  .field("o1", ref("ForwardUnit"))
                                  .field("o2", ref("ForwardUnit"))
                                  .closed()
                                  .ordered())
      .define("ForwardUnit", forward_unit(kStyle))
      .define("Loss", loss_mazur)
      .define("BackwardMazur", object()
                                   .field("output_error_signals", object()
                                                                      .field("o1", ref("OutputErrorSignal"))
                                                                      .field("o2", ref("OutputErrorSignal"))
                                                                      .closed()
                                                                      .ordered())
                                   .field("hidden_error_signals", object()
                                                                      .field("h1", ref("HiddenErrorSignal"))
                                                                      .field("h2", ref("HiddenErrorSignal"))
                                                                      .closed()
                                                                      .ordered())
                                   .closed()
                                   .ordered())
      .define("OutputErrorSignal", output_signal)
      .define("HiddenErrorSignal", hidden_error_signal(kStyle))
      .define("DownstreamContribution", downstream_contribution(kStyle))
      .define("NamedFactor", named_factor(kStyle))
      .define("Update", sgd_update)
      .define("PostUpdateForward", post_forward.closed().ordered())
      .define("PostUpdateLoss", post_loss.closed().ordered());
  return doc;
}

// Any topology: units and parameters are named by the topology, so inputs, forward
// values and signals become maps.
SchemaDocument v0_2_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.2.0",
                            "any one-hidden-layer topology the receipt names itself; steps of a run carry a "
                            "trace_id and a step_index.");
  doc.summary(
      "One audited training step: the network, its parameters, every intermediate value of forward, loss, "
      "backward and update, each recomputable from the ones before it.");
  doc.root()
      .optional_after("learning_rate", "trace_id", trace_id())
      .optional_after("trace_id", "step_index", step_index())
      .replace("inputs", ref("UnitNumberMap"))
      .replace("targets", ref("UnitNumberMap"))
      .replace("parameters_before", ref("ParameterMap"))
      .replace("forward", ref("ForwardMap"))
      .replace("backward", ref("Backward"))
      .replace("parameters_after", ref("ParameterMap"))
      .remove("unit_order")
      .remove("parameter_order")
      .all_of(trace_id_and_step_index_go_together());
  doc.drop("InputsMazur").drop("TargetsMazur").drop("ParametersMazur").drop("ForwardMazur").drop("BackwardMazur");
  doc.edit("FixtureStatus", [](Node& n) {
    n.replace("authoring_state", one_of_values({"hand_derived", "engine_generated", "engine_generated_general",
                                                "deliberately_corrupted"}));
  });
  doc.define("UnitOrder", unit_order())
      .define("ParameterOrder", parameter_order())
      .define("NumericPolicy", numeric_policy(kStyle))
      .define("Topology", general_topology(kStyle))
      .define("UnitNumberMap", number_map(kStyle))
      .define("ParameterMap", number_map(kStyle))
      .define("ForwardMap", forward_map(kStyle))
      .define("Loss", loss(kStyle))
      .define("Backward", backward(kStyle))
      .define("OutputErrorSignal", output_error_signal(kStyle));
  doc.edit("Update", [](Node& n) {
    n.edit("optimizer", [](Node& o) { o.replace("factors", array(ref("NamedFactor")).min_items(1)); });
  });
  doc.edit("PostUpdateForward", [](Node& n) {
    for (auto unit : {"h1", "h2", "o1", "o2"}) n.remove(unit);
    n.unordered().values(ref("ForwardUnit"));
  });
  doc.edit("PostUpdateLoss", [](Node& n) { n.replace("per_output", map_of(number())); });
  return doc;
}

SchemaDocument v0_3_0(const SchemaDocument& prev) {
  SchemaDocument doc =
      bump(prev, "0.3.0", "softmax output with cross-entropy loss; output signals may carry their Jacobian dual form.");
  doc.edit("Topology", add_softmax_output);
  doc.edit("OutputErrorSignal", add_dual_form);
  doc.define("DualForm", dual_form(kStyle)).define("JacobianTerm", jacobian_term(kStyle));
  return doc;
}

SchemaDocument v0_4_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.4.0",
                            "mini-batches with per-sample results; receipts imported from a framework say "
                            "where they came from and who attests them.");
  doc.root()
      .optional_after("fixture_status", "source_framework", ref("SourceFramework"))
      .optional_after("source_framework", "attestor", ref("Attestor"))
      .optional_after("step_index", "batch", ref("Batch"))
      .optional_after("parameters_before", "per_sample", per_sample_results());
  doc.edit("FixtureStatus", [](Node& n) {
    n.replace("authoring_state", one_of_values({"hand_derived", "engine_generated", "engine_generated_general",
                                                "deliberately_corrupted", "external_imported"}));
    n.replace("verification_state",
              one_of_values({"pending_engine_reproduction", "engine_reproduced_byte_equal",
                             "expected_to_fail_reconciliation", "engine_recompute_matched_within_tolerance",
                             "engine_recompute_disagreed", "engine_recompute_skipped_with_basis"}));
  });
  doc.define("SourceFramework", source_framework(true))
      .define("Attestor", attestor())
      .define("AttestorIdentity", attestor_identity())
      .define("Batch", batch());
  doc.edit("Loss", add_batched_loss);
  return doc;
}

constexpr OptimizerSite kOptimizer{"optimizer_config", true, kStyle};

SchemaDocument v0_5_0(const SchemaDocument& prev) {
  SchemaDocument doc =
      bump(prev, "0.5.0", "Adam and AdamW, with per-parameter moment state; batches of at most 10000.");
  release_adam(doc, kOptimizer);
  doc.edit("Batch", [](Node& n) {
    n.replace("size", integer().min(1).max(10000));
    n.replace("sample_order", array(identifier()).min_items(1).max_items(10000).unique());
  });
  return doc;
}

SchemaDocument v0_6_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.6.0", "SGD with momentum (no Nesterov, no dampening, no weight decay).");
  release_momentum(doc, kOptimizer);
  return doc;
}

SchemaDocument v0_7_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.7.0", "momentum may be Nesterov and damped, though not both at once.");
  release_nesterov(doc, kOptimizer);
  return doc;
}

// allOf: two step-identity rules, two Adam rules, then the momentum rules.
constexpr std::size_t kMomentumWeightDecayRule = 5;

SchemaDocument v0_8_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.8.0", "SGD with momentum may use weight decay.");
  lift_momentum_weight_decay_ban(doc, kMomentumWeightDecayRule);
  return doc;
}

}  // namespace receipt
}  // namespace

std::vector<SchemaDocument> receipt_schemas() {
  using namespace receipt;
  return history(v0_1_0(), {v0_2_0, v0_3_0, v0_4_0, v0_5_0, v0_6_0, v0_7_0, v0_8_0});
}

}  // namespace schema_authoring
