// The JSON state nltrain exchanges for checking one chunk from outside (libcore/nl/state_json.hpp):
// nltrain-state (configuration, named parameters, tokens, optional context and step) and
// nltrain-state-result (loss, gradients, frozen levels' error-buffer contributions, context after).
// One version each, v0.1.0. The reader (nl::parse_state) is stricter than the schema where the
// check needs the configuration: parameter names and shapes, token and context lengths.
#include "schema_authoring/families.hpp"

namespace schema_authoring {
namespace {

Node size() { return integer().min(0); }
Node fp32_values() { return array(number()); }

Node named_tensor() {
  return object()
      .field("name", string().non_empty().describe("\"E\", \"W_Q\", ..., \"levels/<l>/W_K\", ..., \"levels/<l>/b_alpha\", ..., \"W_freq\", \"b_freq\" (learned schedule)"))
      .field("shape", array(size()).describe("[] for a scalar"))
      .field("data", fp32_values().describe("row-major fp32 values, written to round-trip exactly"))
      .closed()
      .ordered();
}

Node state_config() {
  return object()
      .field("vocab", size().min(2).max(1048576).describe("token ids 0..vocab-1; 256: bytes are the tokens"))
      .field("d", size().min(1))
      .field("heads", size().min(1))
      .field("seq_len", size().min(1))
      .field("window", size().min(1))
      .field("rule", one_of_values({"DeltaRule", "TitansLMM", "HebbianRule", "Moneta", "YAAD", "MEMORA", "LatticeOSR",
                                    "Trellis", "AtlasOmega"}))
      .field("periods", array(size().min(1)).min_items(1).describe("CMS level periods C_l; C_0 = 1"))
      .optional("seed", size())
      .optional("d_h", size().min(1))
      .optional("m", size().min(1))
      .optional("d_c", size().min(1))
      .optional("lambda_k", number().min(0))
      .optional("lambda_v", number().min(0))
      .optional("lambda_2", number().min(0))
      .optional("lambda_loc", number().min(0))
      .optional("huber_delta", number().min(0))
      .optional("p", number().min(1))
      .optional("a_s", number().min(0))
      .optional("lattice_variant", one_of_values({"decode", "encode", "similarity"}))
      .optional("schedule", one_of_values({"fixed", "learned"})
                                .describe("CMS levels 1..k-1 by the conductor's pulse (default) or by the learned "
                                          "frequency gate (parameters W_freq, b_freq)"))
      .closed()
      .ordered();
}

SchemaDocument state() {
  Node root = object()
                  .field("format", string().fixed("nltrain-state/0.1.0"))
                  .field("config", ref("Config"))
                  .field("parameters", array(ref("NamedTensor")))
                  .field("tokens", object().field("ids", array(size())).field("targets", array(size())).closed().ordered())
                  .optional("context", array(fp32_values()).describe("per level, the initial context memory"))
                  .optional("step", size().describe("the conductor's step, which sets the pulse"))
                  .closed()
                  .ordered();
  SchemaDocument doc("nltrain-state", "0.1.0", std::move(root));
  doc.title("nltrain chunk state")
      .summary("One MAG chunk for external gradient checking: configuration, every parameter by name, the tokens, "
               "optionally the initial context memory per level and the step.");
  doc.define("Config", state_config()).define("NamedTensor", named_tensor());
  return doc;
}

SchemaDocument result() {
  Node root = object()
                  .field("format", string().fixed("nltrain-state-result/0.1.0"))
                  .field("loss", number())
                  .field("pulse", array(boolean()).describe("active (true) or frozen per level"))
                  .field("gradients", array(ref("NamedTensor")).describe("frozen levels: zero"))
                  .field("error_buffer", array(ref("NamedTensor")).describe("frozen levels' contributions"))
                  .field("context_after", array(fp32_values()))
                  .closed()
                  .ordered();
  SchemaDocument doc("nltrain-state-result", "0.1.0", std::move(root));
  doc.title("nltrain chunk result")
      .summary("The loss of one chunk, every outer parameter's gradient, the error-buffer contributions of frozen "
               "levels and the context memory after the chunk.");
  doc.define("NamedTensor", named_tensor());
  return doc;
}

}  // namespace

std::vector<SchemaDocument> nltrain_state_schemas() { return {state(), result()}; }

}  // namespace schema_authoring
