// tensor-step v0.2.0: an MLP's step receipt, written by bp's MlpReceiptWriters
// (apps/bp/extract/pytorch_mlp.py, jax_mlp.py) and read by bp verify tensor (libcore/mlp_audit/receipt.hpp).
// The schema says the shape; the reader also holds what a schema cannot: the tensor layout of
// the receipt's layers, each tensor's SHA-256 against its bytes, finite values, class indices.
#include <cstdint>

#include "schema_authoring/families.hpp"

namespace schema_authoring {
namespace mlp_step {  // named: the unity build shares one anonymous namespace with tensor_step.cpp

Node digest() { return string().pattern("^[0-9a-f]{64}$").describe("SHA-256, lowercase hex"); }
Node count() { return integer().min(0); }

Node tensor() {
  return object()
      .field("name", string().non_empty().describe("input, target, layers.<l>.weight|bias, or <state>.layers.<l>.weight|bias"))
      .field("dtype", one_of_values({"f32"}))
      .field("shape", array(count()).describe("row-major"))
      .field("sha256", digest().describe("of the tensor's little-endian IEEE-754 bytes"))
      // No "pattern": a data string runs to megabytes (see tensor_step.cpp); bp's reader checks it.
      .field("data", string().describe("the bytes, base64 (RFC 4648, padded)"))
      .closed()
      .ordered();
}

Node section() { return object().field("tensors", array(tensor())).closed().ordered(); }

SchemaDocument receipt() {
  Node layer = object()
                   .field("in", integer().min(1))
                   .field("out", integer().min(1))
                   .field("activation", one_of_values({"identity", "relu", "leaky_relu", "sigmoid", "tanh", "silu", "gelu", "gelu_tanh"})
                                     .describe("gelu: nn.GELU(); gelu_tanh: nn.GELU(approximate=\"tanh\")"))
                   .optional("negative_slope", number().min(0).max(1).describe("leaky_relu only"))
                   .optional("layer_norm", object()
                                               .field("eps", number().min(0).max(1))
                                               .field("elementwise_affine", boolean())
                                               .optional("variance", constant("two_pass")
                                                                         .describe("jax_mlp.LayerNorm (a jax receipt): two-pass "
                                                                                   "moments, rsqrt; absent: ATen's (Welford)"))
                                               .closed()
                                               .ordered()
                                               .describe("nn.LayerNorm(out) between the Linear and the activation"))
                   .optional("dropout", number().min(0).max(1).describe("nn.Dropout(p) after the activation, 0 < p < 1; "
                                                                         "its mask is the batch's mask.layers.<l>"))
                   .optional("dropout_keep", number().min(0).max(1).describe("stax.Dropout(rate) after the activation (a jax "
                                                                              "receipt): rate is the keep probability, kept "
                                                                              "entries x / rate; its mask as dropout's"))
                   .closed()
                   .ordered();
  Node sgd = object()
                 .field("kind", constant("sgd"))
                 .field("lr", number().min(0))
                 .field("weight_decay", number().min(0))
                 .field("momentum", number().min(0).max(1))
                 .field("dampening", number().min(0).max(1))
                 .field("nesterov", boolean())
                 .closed()
                 .ordered();
  Node adam = object()
                  .field("kind", one_of_values({"adam", "adamw"}))
                  .field("lr", number().min(0))
                  .field("weight_decay", number().min(0))
                  .field("beta1", number().min(0).max(1))
                  .field("beta2", number().min(0).max(1))
                  .field("eps", number().min(0))
                  .field("amsgrad", boolean())
                  .closed()
                  .ordered();
  // jax.example_libraries.optimizers (trainer "jax"): sgd, momentum, nesterov, adam.
  Node jax_sgd = object().field("kind", constant("jax_sgd")).field("lr", number().min(0)).closed().ordered();
  Node jax_momentum = object()
                          .field("kind", one_of_values({"jax_momentum", "jax_nesterov"}))
                          .field("lr", number().min(0))
                          .field("mass", number().min(0).max(1))
                          .closed()
                          .ordered();
  Node jax_adam = object()
                      .field("kind", constant("jax_adam"))
                      .field("lr", number().min(0))
                      .field("beta1", number().min(0).max(1))
                      .field("beta2", number().min(0).max(1))
                      .field("eps", number().min(0))
                      .closed()
                      .ordered();
  // torch.optim.lr_scheduler (trainer "pytorch"): optimizer.lr is then the scheduler's base lr.
  Node epochs = integer().min(0).max(std::int64_t{1} << 40);
  Node step_lr = object()
                     .field("kind", constant("step"))
                     .field("step_size", integer().min(1).max(std::int64_t{1} << 40))
                     .field("gamma", number().min(0))
                     .closed()
                     .ordered();
  Node multi_step_lr = object()
                           .field("kind", constant("multi_step"))
                           .field("milestones", array(epochs).min_items(1).max_items(4096).describe("sorted; a repeat multiplies by gamma again"))
                           .field("gamma", number().min(0))
                           .closed()
                           .ordered();
  Node exponential_lr = object().field("kind", constant("exponential")).field("gamma", number().min(0)).closed().ordered();
  Node cosine_lr = object()
                       .field("kind", constant("cosine_annealing"))
                       .field("t_max", integer().min(1).max(std::int64_t{1} << 40).describe("CosineAnnealingLR's T_max"))
                       .field("eta_min", number().min(0))
                       .closed()
                       .ordered();
  Node linear_lr = object()
                       .field("kind", constant("linear"))
                       .field("start_factor", number().min(0).max(1))
                       .field("end_factor", number().min(0).max(1))
                       .field("total_iters", epochs)
                       .closed()
                       .ordered();
  // jax.example_libraries.optimizers' schedules (trainer "jax"): optimizer.lr is the step size at 0.
  Node rate = number().min(0).max(1e6);
  Node decay_steps = number().min(0x1p-10).max(1e12);
  Node jax_exponential = object()
                             .field("kind", constant("jax_exponential_decay"))
                             .field("step_size", rate)
                             .field("decay_steps", decay_steps)
                             .field("decay_rate", number().min(0x1p-126).max(1e6))
                             .closed()
                             .ordered();
  Node jax_inverse_time = object()
                              .field("kind", constant("jax_inverse_time_decay"))
                              .field("step_size", rate)
                              .field("decay_steps", decay_steps)
                              .field("decay_rate", rate)
                              .field("staircase", boolean())
                              .closed()
                              .ordered();
  Node jax_polynomial = object()
                            .field("kind", constant("jax_polynomial_decay"))
                            .field("step_size", rate)
                            .field("decay_steps", decay_steps)
                            .field("final_step_size", rate)
                            .field("power", number().min(0).max(64))
                            .closed()
                            .ordered();
  Node jax_piecewise = object()
                           .field("kind", constant("jax_piecewise_constant"))
                           .field("boundaries", array(number()).max_items(4096).describe("fp32 values"))
                           .field("values", array(rate).min_items(1).max_items(4096).describe("fp32 values; one more than boundaries"))
                           .closed()
                           .ordered();
  Node model = object()
                   .field("kind", constant("mlp"))
                   .field("layers", array(layer).min_items(1).max_items(64))
                   .field("loss", object()
                                      .field("kind", one_of_values({"cross_entropy", "mse", "half_squared_error", "bce_with_logits"})
                                                         .describe("half_squared_error: 0.5 * mse_loss (bp's HalfSquaredError)"))
                                      .field("reduction", one_of_values({"mean", "sum"}))
                                      .optional("label_smoothing", number().min(0).max(1).describe("cross_entropy only"))
                                      .optional("weight", array(number()).min_items(1).describe("cross_entropy's class weights (fp32 values)"))
                                      .optional("pos_weight", array(number()).min_items(1).describe(
                                                                  "bce_with_logits' positive weight per output (fp32 values)"))
                                      .optional("ignore_index", integer().describe(
                                                                    "cross_entropy only: samples with this target are left out"))
                                      .closed()
                                      .ordered())
                   .field("optimizer", either({sgd, adam, jax_sgd, jax_momentum, jax_adam}))
                   .optional("scheduler", either({step_lr, multi_step_lr, exponential_lr, cosine_lr, linear_lr, jax_exponential,
                                                  jax_inverse_time, jax_polynomial, jax_piecewise})
                                              .describe("PyTorch: StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LinearLR; "
                                                        "JAX (jax_ kinds): exponential_decay, inverse_time_decay, polynomial_decay, "
                                                        "piecewise_constant"))
                   .closed()
                   .ordered();
  Node step = object()
                  .field("n", count().describe("the step of the run"))
                  .field("optimizer_step", integer().min(1).describe("torch's step count after the update (jax: i + 1 for opt_update(i, ...))"))
                  .field("batch", integer().min(1))
                  .field("lr", number().min(0))
                  .optional("last_epoch", integer().min(0).max(std::int64_t{1} << 27)
                                              .describe("the scheduler's when optimizer.step() ran; exactly with model.scheduler"))
                  .field("loss", number().describe("fp32"))
                  .field("clip", either({object()
                                             .field("max_norm", number().min(0))
                                             .field("total_norm", number().min(0).describe("what clip_grad_norm_ returned"))
                                             .closed()
                                             .ordered(),
                                         constant(nullptr)})
                                     .describe("null when the step ran no clip_grad_norm_; else gradients are before it"))
                  .closed()
                  .ordered();
  Node root = object()
                  .field("format", constant("tensor-step"))
                  .field("version", constant("0.2.0"))
                  .field("trainer", object().field("name", one_of_values({"pytorch", "jax"})).field("version", string()).closed().ordered())
                  .field("model", model)
                  .field("receipt", object()
                                        .field("index", count())
                                        .field("previous_sha256", either({digest(), constant(nullptr)}))
                                        .closed()
                                        .ordered())
                  .field("step", step)
                  .field("batch", section().describe("input [batch, in], target [batch] class indices or [batch, out], then "
                                                     "mask.layers.<l> [batch, out] (1 kept, 0 dropped) per layer with dropout"))
                  .optional("before", section().describe("parameters, then optimizer state, before the step; absent where the "
                                                         "receipt continues the previous one, whose after it then is "
                                                         "(bp verify tensor reads it from that receipt: present on a stream's first)"))
                  .field("gradients", section().describe("what optimizer.step() saw"))
                  .field("after", section())
                  .closed()
                  .ordered();
  SchemaDocument doc("tensor-step", "0.2.0", std::move(root));
  doc.title("tensor-step receipt (MLP)")
      .summary("One training step of an MLP, a PyTorch nn.Sequential or a JAX stax.serial (bp examples pytorch_mlp, "
               "jax_mlp; bp verify tensor): the layers, "
               "loss and optimizer, the chain to the previous receipt, the batch, and exact tensors (base64 bytes with a "
               "SHA-256 each) before, during and after the update.");
  return doc;
}

// bp verify tensor --json (apps/bp/verify_tensor.cpp).
SchemaDocument verify_report() {
  Node rule = object()
                  .field("number", integer().min(1).max(7))
                  .field("name", one_of_values({"chain", "continuity", "loss", "gradient", "update", "lr", "clip"}))
                  .field("checked", count())
                  .field("failed", count())
                  .closed()
                  .ordered();
  Node failure = object()
                     .field("rule", integer().min(1).max(7))
                     .field("name", string())
                     .field("line", count())
                     .field("step", count())
                     .field("tensor", string().describe("empty when the failure is about no one tensor"))
                     .field("index", either({count(), constant(nullptr)}))
                     .field("stored", string().describe("exact decimal, empty when not applicable"))
                     .field("recomputed", string())
                     .field("bound", string().describe("the entry's fp64 error bound"))
                     .field("message", string().non_empty())
                     .closed()
                     .ordered();
  Node root = object()
                  .field("ok", boolean())
                  .field("mode", constant("tensor"))
                  .field("receipts", integer().min(1))
                  .field("first_index", count().describe("the first receipt's index (0 unless earlier files were not given)"))
                  .field("failure_count", count())
                  .field("kinks", count().describe("ReLU/LeakyReLU inputs within their bound of 0: both slopes allowed"))
                  .field("normwise_entries", count().describe("entries whose bound overflowed, held to the norm-wise tolerance"))
                  .field("rules", array(rule).min_items(7).max_items(7))
                  .field("failures", array(failure).max_items(50).describe("the first 50"))
                  .closed()
                  .ordered();
  SchemaDocument doc("bp-verify-tensor-report", "0.1.0", std::move(root));
  doc.title("bp verify tensor --json")
      .summary("The verdict on a stream of MLP step receipts: per rule the checks and failures, and the first failures "
               "(rule, line, step, tensor, entry, stored and recomputed values, bound).");
  return doc;
}

}  // namespace mlp_step

std::vector<SchemaDocument> tensor_step_mlp_schemas() { return {mlp_step::receipt(), mlp_step::verify_report()}; }

}  // namespace schema_authoring
