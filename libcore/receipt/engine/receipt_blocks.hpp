#pragma once
// JSON blocks shared by the general and batched receipts, in the canonical key order the
// reference emits (its emitter's order, which is the schemas' x-order).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "receipt/engine/step_core.hpp"
#include "receipt/topology/topology_index.hpp"
#include "receipt/topology/topology_input.hpp"

namespace receipt::engine {

[[nodiscard]] nlohmann::ordered_json fixture_status_json();
// The input's metadata, or the general engine's default when absent.
[[nodiscard]] nlohmann::ordered_json metadata_json(const std::optional<topology::Metadata>& m);
[[nodiscard]] nlohmann::ordered_json topology_json(const topology::Topology& t);
// {ids[i]: values[i]} as doubles.
[[nodiscard]] nlohmann::ordered_json value_map_json(const std::vector<std::string>& ids, const double* values);
// {hidden..., output...: {net, out}}; with `status` first when given (post_update_forward).
[[nodiscard]] nlohmann::ordered_json forward_json(const topology::Topology& t, const ForwardValues& f,
                                                  const char* status = nullptr);
[[nodiscard]] nlohmann::ordered_json loss_json(const topology::Topology& t, const std::vector<double>& per_output,
                                               double total);
[[nodiscard]] nlohmann::ordered_json backward_json(const topology::Topology& t, const topology::TopologyIndex& ix,
                                                   const StepCore& c, const double* params, const double* targets);
// The factors of parameter k's gradient (signal, and upstream activation for weights).
[[nodiscard]] nlohmann::ordered_json gradient_factors_json(const topology::Topology& t,
                                                           const topology::TopologyIndex& ix, const StepCore& c,
                                                           const double* x, std::size_t k);
// Update entry without its optimizer block's contents decided here: caller passes `optimizer`.
[[nodiscard]] nlohmann::ordered_json update_json(const topology::Topology& t, const topology::TopologyIndex& ix,
                                                 std::size_t k, double weight_before, nlohmann::ordered_json optimizer,
                                                 double gradient, double update, double weight_after);

}  // namespace receipt::engine
