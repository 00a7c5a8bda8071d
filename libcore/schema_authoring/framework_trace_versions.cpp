// The framework-trace sidecar (what an extractor records from PyTorch, JAX or
// TensorFlow), v0.1.0 to v0.8.0. It starts from the receipt's v0.3.0 vocabulary
// without the receipt's bookkeeping, and bounds every collection a foreign
// program fills. Each later version is the previous one plus its changes.
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
namespace trace {

constexpr Style kStyle = kTraceStyle;

Node format(std::string_view version) { return constant("framework-trace.v" + std::string(version)); }

// The next version: a copy of `prev` that names its own format version.
SchemaDocument bump(const SchemaDocument& prev, std::string version, std::string changes) {
  SchemaDocument doc = prev.next(version, std::move(changes));
  doc.root().replace("format", format(version));
  return doc;
}

SchemaDocument v0_1_0() {
  Node root = object()
                  .field("format", format("0.1.0"))
                  .field("source_framework", source_framework(false))
                  .field("topology", ref("Topology"))
                  .field("learning_rate", learning_rate())
                  .optional("numeric_policy", ref("NumericPolicy"))
                  .optional("bias_policy", ref("BiasPolicy"))
                  .field("inputs", ref("UnitNumberMap"))
                  .field("targets", ref("UnitNumberMap"))
                  .field("parameters_before", ref("ParameterMap"))
                  .field("forward", ref("ForwardMap"))
                  .field("loss", ref("Loss"))
                  .field("backward", ref("Backward"))
                  .field("updates", capped_list(array(ref("Update")).min_items(1), kStyle))
                  .field("parameters_after", ref("ParameterMap"))
                  .optional("post_update_forward", ref("PostUpdateForward"))
                  .optional("post_update_loss", ref("PostUpdateLoss"))
                  .closed()
                  .ordered();
  SchemaDocument doc("framework-trace", "0.1.0", std::move(root));
  doc.title("Framework trace sidecar")
      .summary("The values a framework computed for one training step, for bp to import and check.");

  Node topology = general_topology(kStyle);
  add_softmax_output(topology);
  Node output_signal = output_error_signal(kStyle);
  add_dual_form(output_signal);
  Node post_forward = object().field("status", pending_or_filled()).values(ref("ForwardUnit"));
  Node post_loss = object()
                       .field("status", pending_or_filled())
                       .optional("per_output", number_map(kStyle))
                       .optional("total", number())
                       .closed();

  doc.define("UnitOrder", unit_order())
      .define("ParameterOrder", parameter_order())
      .define("NumericPolicy", numeric_policy(kStyle))
      .define("BiasPolicy", bias_policy(kStyle))
      .define("Topology", topology)
      .define("UnitNumberMap", number_map(kStyle))
      .define("ParameterMap", number_map(kStyle))
      .define("ForwardMap", forward_map(kStyle))
      .define("ForwardUnit", forward_unit(kStyle))
      .define("Loss", loss(kStyle))
      .define("Backward", backward(kStyle))
      .define("OutputErrorSignal", output_signal)
      .define("DualForm", dual_form(kStyle))
      .define("JacobianTerm", jacobian_term(kStyle))
      .define("HiddenErrorSignal", hidden_error_signal(kStyle))
      .define("DownstreamContribution", downstream_contribution(kStyle))
      .define("NamedFactor", named_factor(kStyle))
      .define("Update", update(kStyle))
      .define("PostUpdateForward", post_forward)
      .define("PostUpdateLoss", post_loss);
  return doc;
}

SchemaDocument v0_2_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.2.0", "steps of a multi-step run carry a trace_id and a step_index.");
  doc.root()
      .optional_after("source_framework", "trace_id", trace_id())
      .optional_after("trace_id", "step_index", step_index())
      .all_of({step_index_needs_trace_id()});
  return doc;
}

SchemaDocument v0_3_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.3.0", "mini-batches with per-sample results.");
  doc.root()
      .optional_after("bias_policy", "batch", batch())
      .optional_after("parameters_before", "per_sample", per_sample_results());
  doc.edit("Loss", [](Node& n) {
    add_batched_loss(n);
    n.ordered();  // the one trace object whose key order is recorded
  });
  return doc;
}

constexpr OptimizerSite kOptimizer{"optimizer", false, kStyle};

SchemaDocument v0_4_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.4.0", "Adam and AdamW, with per-parameter moment state.");
  release_adam(doc, kOptimizer);
  doc.edit("Loss", [](Node& n) { n.replace("per_sample", number_map(kStyle)); });
  return doc;
}

SchemaDocument v0_5_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.5.0", "SGD with momentum (no Nesterov, no dampening, no weight decay).");
  release_momentum(doc, kOptimizer);
  return doc;
}

SchemaDocument v0_6_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.6.0", "momentum may be Nesterov and damped, though not both at once.");
  release_nesterov(doc, kOptimizer);
  return doc;
}

// The live helper that wrote the trace, and where it ran.
Node helper() {
  Node framework = object()
                       .field("name", one_of_values({"pytorch", "jax", "tensorflow"}))
                       .field("version", string().non_empty())
                       .optional("commit", string().pattern("^[0-9a-f]{7,40}$"))
                       .closed()
                       .ordered();
  Node deterministic = object()
                           .optional("torch_use_deterministic_algorithms", boolean())
                           .optional("cudnn_deterministic", boolean())
                           .optional("cudnn_benchmark", boolean())
                           .optional("seed", integer().min(0))
                           .closed()
                           .ordered();
  Node runtime = object()
                     .field("python_version", string().pattern("^\\d+\\.\\d+\\.\\d+"))
                     .optional("torch_version", string().non_empty())
                     .optional("deterministic_mode", deterministic)
                     .closed()
                     .ordered();
  Node extraction =
      object()
          .field("timestamp",
                 string().pattern("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"))
          .optional("duration_ms", integer().min(0))
          .field("device", one_of_values({"cpu", "cuda", "mps", "xla"}))
          .closed()
          .ordered();
  return object()
      .field("name", string().non_empty())
      .field("version", string().non_empty())
      .field("distribution", one_of_values({"repo-script", "pypi", "vendored"}))
      .field("source_hash", sha256_digest())
      .optional("source_uri", string().non_empty())
      .field("framework", framework)
      .field("runtime", runtime)
      .field("extraction", extraction)
      .closed()
      .ordered()
      .describe("The extraction helper that observed the step: its identity, hash, framework and runtime.");
}

// A trace from a real framework names its helper, unless its extractor says it
// was written by hand.
Node framework_traces_name_their_helper() {
  Node hand_authored = object().required_list({"name"}).optional("name", constant("hand_authored"));
  Node extractor_is_hand_authored = object().required_list({"extractor"}).optional("extractor", hand_authored);
  Node test = object().required_list({"source_framework"});
  test.optional("source_framework", named({"pytorch", "jax", "tensorflow"}));
  Node by_hand;
  by_hand.optional("source_framework", extractor_is_hand_authored);
  return object().if_then(std::move(test), object().any_of({forbids_key("source_framework"), requires_keys({"helper"}),
                                                            std::move(by_hand)}));
}

constexpr std::size_t kStepIdentityRule = 0;

SchemaDocument v0_7_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.7.0",
                            "live helpers record themselves; trace_id and step_index come together or not "
                            "at all.");
  doc.root()
      .optional_after("source_framework", "helper", helper())
      .set_all_of(kStepIdentityRule, trace_id_and_step_index_both_or_neither())
      .append_all_of(framework_traces_name_their_helper());
  return doc;
}

// allOf: the step-identity rule, two Adam rules, then the momentum rules.
constexpr std::size_t kMomentumWeightDecayRule = 4;

SchemaDocument v0_8_0(const SchemaDocument& prev) {
  SchemaDocument doc = bump(prev, "0.8.0", "SGD with momentum may use weight decay.");
  lift_momentum_weight_decay_ban(doc, kMomentumWeightDecayRule);
  return doc;
}

}  // namespace trace
}  // namespace

std::vector<SchemaDocument> framework_trace_schemas() {
  using namespace trace;
  return history(v0_1_0(), {v0_2_0, v0_3_0, v0_4_0, v0_5_0, v0_6_0, v0_7_0, v0_8_0});
}

}  // namespace schema_authoring
