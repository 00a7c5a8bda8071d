// tensor-step v0.1.0: the step receipt nltrain train --receipts writes and bp verify nltrain
// reads (libcore/nl_audit/receipt.hpp). The schema says the shape; the reader also holds what a
// schema cannot: the tensor layout of the receipt's model, each tensor's SHA-256 against its
// bytes, and the canonical spelling (the writer's bytes are the only accepted ones).
#include "schema_authoring/families.hpp"

namespace schema_authoring {
namespace {

Node digest() { return string().pattern("^[0-9a-f]{64}$").describe("SHA-256, lowercase hex"); }
Node count() { return integer().min(0); }

Node tensor() {
  return object()
      .field("name", string().non_empty().describe("params/<p>, adam_m/<p>, adam_v/<p>, context/<l>, error_buffer/<p>, grad/<p> or error/<p>"))
      .field("dtype", one_of_values({"f32", "f64"}).describe("f32; f64 in an fp64 run's receipts (model.precision)"))
      .field("shape", array(count()).describe("row-major; [] for a scalar"))
      .field("sha256", digest().describe("of the tensor's little-endian IEEE-754 bytes"))
      // No "pattern" here: a data string runs to megabytes, too long for a backtracking regex
      // engine (libstdc++'s recurses per character); bp's reader checks the base64 exactly.
      .optional("data", string().describe("the bytes, base64 (RFC 4648, padded; absent in compact sections)"))
      .closed()
      .ordered();
}

Node state_section() {
  Node counters = object()
                      .field("step", count().describe("the conductor's step"))
                      .field("adam_tau", count().describe("AdamW steps of the attention group"))
                      .field("adam_tau_level", array(count()).min_items(1).describe("AdamW steps per CMS level"))
                      .field("error_buffer_counts", array(count()).min_items(1).describe("frozen steps buffered per level"))
                      .closed()
                      .ordered();
  return object().field("counters", counters).field("tensors", array(tensor())).closed().ordered();
}

SchemaDocument receipt() {
  Node model = object()
                   .field("kind", constant("nltrain-mag"))
                   .field("config", object().describe("the MAG model, as in nltrain-state's config"))
                   .field("optimizer", object()
                                           .field("lr", number().min(0))
                                           .field("beta1", number())
                                           .field("beta2", number())
                                           .field("eps", number())
                                           .field("weight_decay", number())
                                           .field("clip", number())
                                           .field("warmup", count())
                                           .field("total_steps", count())
                                           .closed()
                                           .ordered())
                   .optional("precision", constant("fp64").describe("nltrain train --fp64: f64 tensors, binary64 loss and clip "
                                                                    "factor; absent: fp32"))
                   .field("sha256", digest().describe("of the model object's canonical text without this key"))
                   .closed()
                   .ordered();
  Node step = object()
                  .field("n", count().describe("the step of the run"))
                  .field("chunk", count())
                  .field("offset", count().describe("byte offset of the step's first token in the data (chunk x seq_len x token size)"))
                  .field("context_reset", boolean().describe("the data wrapped: the context memory restarted"))
                  .optional("tokens", object()
                                          .field("ids", array(count()))
                                          .field("targets", array(count()))
                                          .closed()
                                          .ordered()
                                          .describe("absent in compact receipts (the data's tokens at offset)"))
                  .field("pulse", array(boolean()).min_items(1).describe("active CMS levels"))
                  .field("lr", number().min(0))
                  .field("loss", number().describe("fp32 (fp64 with model.precision), shortest decimal"))
                  .field("grad_norm", number().min(0).describe("before clipping, accumulated in fp64"))
                  .field("clip_scale", either({number(), constant(nullptr)})
                                           .describe("fp32 factor (fp64 with model.precision); null when not clipped"))
                  .closed()
                  .ordered();
  Node root = object()
                  .field("format", constant("tensor-step"))
                  .field("version", constant("0.1.0"))
                  .field("trainer", object().field("name", constant("nltrain")).field("version", string()).closed().ordered())
                  .field("model", model)
                  .field("data", object()
                                     .field("sha256", digest())
                                     .field("bytes", count().describe("the data file's size in bytes"))
                                     .optional("format", one_of_values({"u16", "u32"})
                                                             .describe("little-endian token ids of 2 or 4 bytes; absent: every byte a token"))
                                     .closed()
                                     .ordered())
                  .field("kernels", object()
                                        .field("gradient_path", one_of_values({"tape", "hand_written"}))
                                        .field("blas", string().describe("BLAS library and core type: what decides fp32 bits"))
                                        .optional("device", string()
                                                                .pattern("^(cpu-launcher|cuda:(0|[1-9][0-9]*))$")
                                                                .describe("libgpu's kernels ran the memory rules and SWA "
                                                                          "(nltrain --device); absent: nl's own code"))
                                        .closed()
                                        .ordered())
                  .field("receipt", object()
                                        .field("index", count())
                                        .field("every", integer().min(1))
                                        .field("previous_sha256", either({digest(), constant(nullptr)}))
                                        .closed()
                                        .ordered())
                  .field("step", step)
                  .optional("before", state_section().describe("the state before the step: first receipt, or every > 1"))
                  .field("gradients", object().field("tensors", array(tensor())).closed().ordered())
                  .field("after", state_section())
                  .closed()
                  .ordered();
  SchemaDocument doc("tensor-step", "0.1.0", std::move(root));
  doc.title("tensor-step receipt")
      .summary("One audited training step (nltrain train --receipts; bp verify nltrain): the model, the data, the kernels, "
               "the chain to the previous receipt, the step's tokens and scalars, and exact tensors (base64 bytes with a "
               "SHA-256 each) before, during and after the update.");
  return doc;
}

// bp verify nltrain --json (apps/bp/verify_nltrain.cpp).
SchemaDocument verify_report() {
  Node rule = object()
                  .field("number", integer().min(1).max(9))
                  .field("name", one_of_values({"schema", "chain", "data", "loss", "gradient", "clip", "schedule", "adamw", "memory"}))
                  .field("checked", count())
                  .field("failed", count())
                  .closed()
                  .ordered();
  Node failure = object()
                     .field("rule", integer().min(1).max(9))
                     .field("name", string())
                     .field("line", count().describe("line of the receipt in the stream"))
                     .field("step", count())
                     .field("tensor", string().describe("empty when the failure is about no one tensor"))
                     .field("index", either({count(), constant(nullptr)}).describe("the first entry that differs"))
                     .field("stored", string().describe("exact decimal, empty when not applicable"))
                     .field("recomputed", string())
                     .field("tolerance", string().describe("\"bitwise\", the fp64 bound, or empty"))
                     .field("message", string().non_empty())
                     .closed()
                     .ordered();
  Node root = object()
                  .field("ok", boolean())
                  .field("mode", constant("nltrain"))
                  .field("receipts", integer().min(1))
                  .field("failure_count", count())
                  .field("not_bitwise", count().describe("values held to the fp64 bound under --cross-machine or from receipts of "
                                                               "libgpu's kernels (kernels.device)"))
                  .field("normwise_steps",
                         count().describe("steps whose loss, gradients and contexts the fp64 way held to the norm-wise "
                                          "tolerance: their per-entry bounds were not proven"))
                  .field("rules", array(rule).min_items(9).max_items(9))
                  .field("failures", array(failure).max_items(100).describe("the first 100"))
                  .closed()
                  .ordered();
  SchemaDocument doc("bp-verify-nltrain-report", "0.1.0", std::move(root));
  doc.title("bp verify nltrain --json")
      .summary("The verdict on a stream of nltrain step receipts: per rule the receipts checked and failed, and the "
               "first failures (rule, line, step, tensor, entry, stored and recomputed values, tolerance).");
  return doc;
}

}  // namespace

std::vector<SchemaDocument> tensor_step_schemas() { return {receipt(), verify_report()}; }

}  // namespace schema_authoring
