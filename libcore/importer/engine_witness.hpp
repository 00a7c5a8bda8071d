#pragma once
// The differential witness: our engine re-runs the step from the sidecar's inputs alone
// (topology, learning rate, inputs, targets, parameters_before, policies, optimizer settings and
// state_before, or the batch), never from its claimed results.
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/read_json.hpp"

namespace importer {

// The numeric_policy an observer receipt gets when the sidecar has none: float32-grade tolerance
// {atol 1e-6, rtol 1e-4} (the reference's FIX-3b default; live helpers omit the block).
[[nodiscard]] const nlohmann::ordered_json& default_numeric_policy();

// The sidecar's bias_policy; without one, "sgd" when per-neuron biases changed across the step
// (a real nn.Linear(bias=True)), else the constant (Mazur) default.
[[nodiscard]] nlohmann::ordered_json resolve_bias_policy(const nlohmann::ordered_json& sidecar);
[[nodiscard]] nlohmann::ordered_json resolve_bias_policy(const reconcile::Json& sidecar);

// The sidecar's optimizer block as optimizer_config: name, learning_rate and the hyperparameters it
// has; nesterov only when true, dampening only when non-zero (as the engine and the receipt take it).
[[nodiscard]] nlohmann::ordered_json forwarded_optimizer_config(const nlohmann::ordered_json& optimizer);
[[nodiscard]] nlohmann::ordered_json forwarded_optimizer_config(const reconcile::Json& optimizer);

// The engine input as a receipt-shaped document (what receipt::reproduce::extract_general_input reads).
[[nodiscard]] common::Result<nlohmann::ordered_json> engine_input_document(const nlohmann::ordered_json& sidecar);

// Runs the engine on the sidecar's inputs (the document above, read in place from the sidecar
// instead of assembled); the engine's receipt. Errors are those of the document path (malformed),
// message without a prefix. `topology_bytes`, when not empty, are the sidecar's topology member
// as read (GatedSidecar::topology_bytes): a topology read from the same bytes just before on this
// thread is not read, nor compared, again (a stream's records repeat theirs).
[[nodiscard]] common::Result<receipt::engine::GeneralReceipt> run_witness(const nlohmann::ordered_json& sidecar,
                                                                         std::string_view topology_bytes = {});

// The same, the sidecar read in place from its document (the multi-step import): the same input,
// the same engine receipt or the same refusal, without the sidecar becoming a tree.
[[nodiscard]] common::Result<receipt::engine::GeneralReceipt> run_witness(const reconcile::ReadReceipt& sidecar,
                                                                         std::string_view topology_bytes = {});

}  // namespace importer
