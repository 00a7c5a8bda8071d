#pragma once
// A general-engine receipt (v0.2.0 .. v0.8.0) as the engine computed it: the step's numbers in flat
// arrays plus a shared pointer to the input they came from (topology, policies, optimizer, batch).
// Nothing here is spelled as JSON; receipt::emit writes it as canonical bytes directly, and
// to_json() (receipt_json.hpp) builds the equivalent document for code that inspects receipts.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "receipt/engine/general_input.hpp"
#include "receipt/engine/step_core.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::engine {

// One entry of `updates`: parameter `slot` (its index in parameter_order) and what the optimizer did.
struct UpdateRecord {
  std::uint32_t slot = 0;
  double weight_before = 0;
  double gradient = 0;  // batched: the reduced gradient
  double update = 0;
  double weight_after = 0;
  OptimizerState state_before, state_after;  // meaningful when the receipt's optimizer is stateful
};

// Batched receipts: one sample's forward pass and loss at parameters_before.
struct SampleRecord {
  ForwardValues forward;
  std::vector<double> loss_per_output;
  double loss_total = 0;
};

struct GeneralReceipt {
  std::shared_ptr<const GeneralInput> input;
  topology::TopologyIndex index;
  const char* schema_version = "0.2.0";
  std::string fixture;
  // The (first) sample's forward, loss and backward at parameters_before.
  StepCore core;
  // Stateful optimizers (momentum, Adam, AdamW) write state_before / state_after per update.
  bool stateful = false;
  std::vector<UpdateRecord> updates;  // in parameter_order; parameters without an update are skipped
  std::vector<double> parameters_after;
  ForwardValues post_forward;
  std::vector<double> post_loss_per_output;
  double post_loss_total = 0;
  // Batched only (input->batch set): per-sample records in sample_order and the reduced loss.
  std::vector<SampleRecord> samples;
  std::vector<double> reduced_loss_per_output;
  double reduced_loss_total = 0;

  [[nodiscard]] bool batched() const { return input->batch.has_value(); }
  [[nodiscard]] const topology::Topology& topology() const { return input->base.topology; }
  // Inputs and targets the receipt's top-level `inputs` / `targets` show (batched: the first sample).
  [[nodiscard]] const double* inputs() const;
  [[nodiscard]] const double* targets() const;
  [[nodiscard]] const char* optimizer_name() const;  // the name in each update's optimizer block
};

// Single-sample step (input->batch must be empty).
[[nodiscard]] common::Result<GeneralReceipt> compute_general_step(std::shared_ptr<const GeneralInput> input);

// Batched step: per-sample forward/backward, reduced gradient, one SGD update (plain SGD only).
[[nodiscard]] common::Result<GeneralReceipt> compute_batched_general_step(std::shared_ptr<const GeneralInput> input);

// The schema version the reference writes for this configuration.
[[nodiscard]] const char* schema_version_for(const GeneralInput& input);

}  // namespace receipt::engine
