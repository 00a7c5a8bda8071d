#pragma once
// parse_topology of a receipt's topology block, remembering the last one parsed on this thread:
// the records of a stream carry the same topology, and parsing it again (path strings, id
// checks, the index) was 12% of `bp verify multi`'s time on 7 KB records. The block is reused
// only when it is the same JSON exactly (types, every number's bits, keys and their order), with
// the same path and options, so the result, error included, is what parse_topology would return.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/topology/parse_topology_input.hpp"

namespace receipt::topology {

// `source`, when given, is the block's input bytes (common::JsonView::member_span): equal bytes
// are the same block without comparing the trees.
[[nodiscard]] common::Result<Topology> parse_topology_remembered(const nlohmann::ordered_json& block,
                                                                 std::string_view path, ParseOptions options,
                                                                 std::optional<std::string_view> source = std::nullopt);

// a and b are the same JSON exactly: nlohmann's == calls 1 and 1.0, or 0.0 and -0.0, equal, and
// ignores nothing else; this does not.
[[nodiscard]] bool same_json_exactly(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b);

}  // namespace receipt::topology
