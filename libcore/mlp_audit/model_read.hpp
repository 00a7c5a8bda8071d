#pragma once
// The "model" object of an `mlp` receipt (receipt.hpp), read strictly: layers (LayerNorm,
// activation, Dropout), loss and its options, optimizer, learning-rate scheduler; and what a jax
// receipt may not name.
#include "common/result.hpp"
#include "mlp_audit/model.hpp"
#include "mlp_audit/read_fields.hpp"

namespace mlp_audit {

[[nodiscard]] common::Status read_model(const FieldReader& at, const View& obj, Model& m);
// The model's "scheduler" (scheduler_read.cpp).
[[nodiscard]] common::Status read_scheduler(const FieldReader& at, const View& obj, Scheduler& s);
// A "scheduler" of a jax_ kind (jax_schedule_read.cpp): `o` is the model's optimizer, read first.
[[nodiscard]] common::Status read_jax_schedule(const FieldReader& at, const View& obj, const Optimizer& o, JaxSchedule& s);
// GELU, BCEWithLogitsLoss, the half squared error and CrossEntropyLoss's
// options are recomputed in torch's formulas only: a receipt of trainer "jax" may not name them;
// its LayerNorm and Dropout are JAX's (variance "two_pass", dropout_keep).
[[nodiscard]] common::Status check_jax_model(const FieldReader& at, const View& obj, const Model& m);
// A torch receipt may not name JAX's LayerNorm (variance "two_pass") or Dropout (dropout_keep).
[[nodiscard]] common::Status check_torch_model(const FieldReader& at, const View& obj, const Model& m);

}  // namespace mlp_audit
