#pragma once
// What an `mlp` receipt says the network is: a torch.nn.Sequential of Linear layers, each
// optionally normalized (LayerNorm), followed by one activation (Identity for none) and
// optionally by Dropout, a loss and an optimizer (torch's single-tensor
// CPU implementations, whose formulas step.cpp follows operation for operation, or
// jax.example_libraries.optimizers' sgd, momentum, nesterov and adam: jax_update.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mlp_audit/jax_schedule.hpp"
#include "mlp_audit/lr_schedule.hpp"

namespace mlp_audit {

// gelu: nn.GELU() (erf); gelu_tanh: nn.GELU(approximate="tanh").
enum class Activation : unsigned char { identity, relu, leaky_relu, sigmoid, tanh, silu, gelu, gelu_tanh };
// half_squared_error: bp's HalfSquaredError module, 0.5 * mse_loss (loss.cpp gives the formulas).
enum class LossKind : unsigned char { cross_entropy, mse, half_squared_error, bce_with_logits };
enum class Reduction : unsigned char { mean, sum };
enum class OptimizerKind : unsigned char { sgd, adam, adamw, jax_sgd, jax_momentum, jax_nesterov, jax_adam };

// The jax.example_libraries.optimizers kinds (a receipt of trainer "jax").
[[nodiscard]] constexpr bool is_jax(OptimizerKind k) { return k >= OptimizerKind::jax_sgd; }

// How a LayerNorm is computed: ATen's (Welford moments, its hand-written backward:
// layer_norm.cpp) or jax_mlp.LayerNorm's (two-pass mean and variance, rsqrt, JAX's autodiff:
// layer_norm_jax.cpp). The receipt's layer_norm.variance says which ("two_pass"; absent: ATen's).
enum class NormForm : unsigned char { aten, jax_two_pass };

// nn.LayerNorm(out, eps, elementwise_affine) between a layer's Linear and its activation.
struct LayerNorm {
  double eps = 1e-5;
  bool affine = true;  // elementwise_affine: parameters layers.<l>.norm.weight and .bias [out]
  NormForm form = NormForm::aten;
};

struct Layer {
  std::size_t in = 0, out = 0;
  Activation activation = Activation::identity;
  double negative_slope = 0.01;  // leaky_relu only
  std::optional<LayerNorm> norm;
  // nn.Dropout(p) after the activation, 0 for none: the receipt's batch records the mask torch drew
  // (mask.layers.<l>, [batch, out], 1 kept / 0 dropped) and kept entries are scaled by 1 / (1 - p).
  double dropout = 0;
  // stax.Dropout(rate) instead (a jax receipt's dropout_keep): `dropout` is then the KEEP
  // probability, and kept entries are x / rate (JAX's formula, forward and backward).
  bool dropout_keeps = false;
};

struct Optimizer {
  OptimizerKind kind = OptimizerKind::sgd;
  double lr = 0, weight_decay = 0;
  double momentum = 0, dampening = 0;  // sgd
  bool nesterov = false;               // sgd
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  // adam, adamw, jax_adam (its b1, b2, eps)
  bool amsgrad = false;                           // adam, adamw
  double mass = 0;                                // jax_momentum, jax_nesterov
};

struct Model {
  std::vector<Layer> layers;
  LossKind loss = LossKind::cross_entropy;
  Reduction reduction = Reduction::mean;
  // cross_entropy only: CrossEntropyLoss(label_smoothing=, weight=) (empty: no class weights).
  double label_smoothing = 0;
  std::vector<float> class_weight;
  // cross_entropy only: CrossEntropyLoss(ignore_index=): samples whose target equals it add
  // nothing to the loss, its mean's count or weight sum, nor the gradient. Absent: every target
  // must be a class (receipts written before bp recorded it).
  std::optional<std::int64_t> ignore_index;
  // bce_with_logits only: BCEWithLogitsLoss(pos_weight=) per output (empty: none), fp32 values.
  std::vector<float> pos_weight;
  Optimizer optimizer;
  // A PyTorch learning-rate scheduler on the optimizer; optimizer.lr is then its base lr (the
  // group's initial_lr) and each step records the scheduler's last_epoch.
  std::optional<Scheduler> scheduler;
  // A jax.example_libraries.optimizers step-size schedule (trainer "jax", model.scheduler of a
  // jax_ kind): optimizer.lr is then its value at step 0 as a number (step_size, or values[0]).
  std::optional<JaxSchedule> jax_schedule;
};

// The largest width and depth a receipt may declare (a per-record bound, with kMaxRecordBytes).
inline constexpr std::size_t kMaxWidth = std::size_t{1} << 16;
inline constexpr std::size_t kMaxLayers = 64;

[[nodiscard]] std::string activation_name(Activation a);
// How many parameter tensors the model has: per layer weight and bias, then its LayerNorm's
// weight and bias where it has an affine one.
[[nodiscard]] std::size_t parameter_count(const Model& m);
// The names of the optimizer's state tensors per parameter, in receipt order ("exp_avg", ...).
[[nodiscard]] std::vector<std::string> state_names(const Optimizer& o);

}  // namespace mlp_audit
