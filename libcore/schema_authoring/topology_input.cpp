// The topology-input file `bp generate` reads: a network, its starting parameters
// and one example, before any step has been computed. One version, v0.4.0.
#include "schema_authoring/families.hpp"
#include "schema_authoring/optimizer_rules.hpp"
#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

std::vector<SchemaDocument> topology_input_schemas() {
  Node root = object()
                  .optional("$schema", string().fixed("https://json-schema.org/draft/2020-12/schema"))
                  .optional("fixture", string())
                  .optional("metadata", object())
                  .field("numeric_policy", ref("NumericPolicy"))
                  .field("bias_policy", ref("BiasPolicy"))
                  .field("topology", ref("Topology"))
                  .field("learning_rate", learning_rate())
                  .optional("trace_id", trace_id())
                  .optional("step_index", step_index())
                  .field("inputs", map_of(number()))
                  .field("targets", map_of(number()))
                  .field("parameters_before", map_of(number()))
                  // Listed network first, policies last.
                  .required_list({"topology", "learning_rate", "inputs", "targets", "parameters_before",
                                  "numeric_policy", "bias_policy"})
                  .closed()
                  .ordered()
                  .all_of(trace_id_and_step_index_go_together());
  SchemaDocument doc("topology-input", "0.4.0", std::move(root));
  doc.title("Topology and input configuration")
      .summary(
          "What `bp generate` needs to compute a receipt: the network, its parameters, one example and the "
          "numeric policy.");
  doc.define("UnitOrder", unit_order())
      .define("ParameterOrder", parameter_order())
      .define("NumericPolicy", numeric_policy(kReceiptStyle))
      .define("BiasPolicy", bias_policy(kReceiptStyle))
      .define("Topology", general_topology(kReceiptStyle));
  return {doc};
}

}  // namespace schema_authoring
