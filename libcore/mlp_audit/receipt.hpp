#pragma once
// An MLP's step receipt (PyTorch nn.Sequential or JAX stax): the `tensor-step` format, version 0.2.0, model kind "mlp"
// (nltrain's receipts stay 0.1.0, nltrain-mag). One JSON line per training step:
//
//   {"format":"tensor-step","version":"0.2.0","trainer":{"name":"pytorch"|"jax","version":V},
//    "model":{"kind":"mlp","layers":[{"in":n,"out":n,"activation":A[,"negative_slope":x]
//                                     [,"layer_norm":{"eps":x,"elementwise_affine":b}][,"dropout":p]},...],
//             "loss":{"kind":"cross_entropy"|"mse"|"half_squared_error"|"bce_with_logits",
//                     "reduction":"mean"|"sum"[,"label_smoothing":x][,"weight":[C fp32 values]][,"pos_weight":[C fp32 values]]},
//             (label_smoothing and weight: cross_entropy only, pos_weight: bce_with_logits only, present when set)
//             "optimizer":{"kind":"sgd"|"adam"|"adamw","lr":x,"weight_decay":x,
//                          sgd: "momentum":x,"dampening":x,"nesterov":b
//                          adam(w): "beta1":x,"beta2":x,"eps":x,"amsgrad":b}
//                 | trainer "jax" (jax.example_libraries.optimizers): {"kind":"jax_sgd","lr":x}
//                   | {"kind":"jax_momentum"|"jax_nesterov","lr":x,"mass":x}
//                   | {"kind":"jax_adam","lr":x,"beta1":x,"beta2":x,"eps":x}}
//             [,"scheduler":{"kind":"step","step_size":n,"gamma":x} | {"kind":"multi_step","milestones":[n,...],"gamma":x}
//                          | {"kind":"exponential","gamma":x} | {"kind":"cosine_annealing","t_max":n,"eta_min":x}
//                          | {"kind":"linear","start_factor":x,"end_factor":x,"total_iters":n}]},
//             (scheduler: PyTorch only; optimizer.lr is then the scheduler's base lr)
//    "receipt":{"index":i,"previous_sha256":H|null},
//    "step":{"n":n,"optimizer_step":k,"batch":B,"lr":x[,"last_epoch":e],"loss":x,"clip":null|{"max_norm":x,"total_norm":x}},
//             (last_epoch: the scheduler's when optimizer.step() ran; present exactly with a scheduler)
//    "batch":{"tensors":[input [B,in], target [B] class indices as f32 | [B,out] (in [0,1] for
//             bce_with_logits), then mask.layers.<l> [B,out] per layer with dropout: 1 kept, 0 dropped]},
//    ["before":{"tensors":[params..., optimizer state...]},]
//             (absent on a receipt that continues the previous one: its before is that one's after,
//              bit for bit, so bp reads it there; present on the first receipt a writer writes)
//    "gradients":{"tensors":[params' gradients...]},
//    "after":{"tensors":[params..., optimizer state...]}}
//
// Parameters are named layers.<l>.weight [out,in] and layers.<l>.bias [out], then, with an affine
// layer_norm (applied to the Linear's output, before the activation), layers.<l>.norm.weight and
// layers.<l>.norm.bias [out]; optimizer state
// <state>.layers.<l>.weight (state_names order, then parameter order). With "clip", the step ran
// torch.nn.utils.clip_grad_norm_(params, max_norm) (norm type 2) between backward and the update
// (trainer "jax": optimizers.clip_grads(grads, max_norm), through the writer's clip_grads):
// "gradients" are as backward left them, total_norm is what clip_grad_norm_ returned (jax:
// optimizers.l2_norm of the gradients). Tensors are nl_audit's TensorEntry: f32, little-endian
// base64 bytes and their SHA-256. previous_sha256 is the SHA-256 of the previous line (without
// its newline): runs split across files chain through it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "mlp_audit/model.hpp"
#include "nl_audit/tensor_entry.hpp"

namespace mlp_audit {

inline constexpr std::string_view kVersion = "0.2.0";
// One receipt line at most: a 784-256-10 Adam step with batch 64 is about 7.9 MB (4.7 MB without before).
inline constexpr std::size_t kMaxRecordBytes = std::size_t{256} * 1024 * 1024;

struct Receipt {
  std::string trainer_version;
  Model model;
  std::string model_text;  // the model object as read (compact JSON): constant through a run
  std::uint64_t index = 0;
  std::optional<std::string> previous_sha256;
  std::uint64_t n = 0, optimizer_step = 0, batch = 0;
  double lr = 0;
  std::optional<std::uint64_t> last_epoch;  // the scheduler's, where the model has one
  float loss = 0;
  struct Clip {
    double max_norm = 0;
    float total_norm = 0;
  };
  std::optional<Clip> clip;
  nl_audit::TensorEntry input, target;
  std::vector<nl_audit::TensorEntry> masks;  // mask.layers.<l>, one per layer with dropout
  std::vector<nl_audit::TensorEntry> before, gradients, after;  // before: empty where the receipt left it out
};

// The names and shapes of the parameters, then of the optimizer state.
struct Slot {
  std::string name;
  std::vector<std::size_t> shape;
};
[[nodiscard]] std::vector<Slot> parameter_slots(const Model& m);
[[nodiscard]] std::vector<Slot> state_slots(const Model& m);

// Strict: unknown keys, wrong types, shapes, digests and bounds are malformed errors naming
// `file`:`line` and the JSON path.
[[nodiscard]] common::Result<Receipt> read_receipt(std::string_view line, const std::string& file, std::int64_t line_no);

}  // namespace mlp_audit
