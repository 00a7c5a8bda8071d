#pragma once
// Strict parse of a topology+input document (schema topology-input v0.4.0) into TopologyInput.
// Unknown keys, wrong types, non-finite numbers, ids off the identifier pattern, sizes over the
// limits of topology_input.hpp and inconsistent topologies are refused with the JSON path.
// Error codes follow the reference's split: what the schema rejects is `malformed` (reference exit 1);
// what only its engine or emitter rejects (unit_order vs sizes, wiring, bias sharing, missing or
// unknown value ids, computation_order/byte_output/metadata.source needed to emit) is
// `invalid_argument` (reference exit 2). Unknown ids in inputs/targets/parameters_before are
// refused although the reference ignores them: a misspelt id must not pass silently.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/topology/topology_input.hpp"

namespace receipt::topology {

struct ParseOptions {
  // false: the topology-input schema surface (sigmoid/identity/relu, half_squared_error).
  // true: also softmax output + cross_entropy_softmax, as receipts carry them.
  bool allow_softmax = false;
  // Units per layer; the input schema says 64, receipts may carry up to the engine's 512.
  std::size_t max_layer_units = kMaxLayerUnits;
};

// `file` only labels errors. Duplicate keys cannot be seen here (the JSON parser keeps the last).
[[nodiscard]] common::Result<TopologyInput> parse_topology_input(const nlohmann::json& doc, std::string_view file,
                                                                 ParseOptions options = {});

// The Topology object alone (used for receipts too); `path` is the JSON Pointer of `node`.
[[nodiscard]] common::Result<Topology> parse_topology(const nlohmann::json& node, std::string_view path,
                                                      ParseOptions options = {});
// The same block read in place (a receipt's tree): it accepts exactly what the copy into
// nlohmann::json accepts, with the same result; a refusal is made again on that copy, so its
// words name the first offending key in sorted order.
[[nodiscard]] common::Result<Topology> parse_topology(const nlohmann::ordered_json& node, std::string_view path,
                                                      ParseOptions options = {});

}  // namespace receipt::topology
