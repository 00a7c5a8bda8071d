#pragma once
// One entry of topology.parameters. parse_parameter checks it field by field and names the JSON
// path of what is wrong; accepted_parameter reads an entry that parse_parameter accepts, without
// spelling a path per field (a 64-64-64 topology has 8,452 entries, five paths each), and says
// nullopt for anything else, which then goes through parse_parameter for its error. Both read
// the node through the same accessors, so they agree on duplicate keys too
// (tests/receipt/topology/parse_parameter_test.cpp holds them to it).
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "common/result.hpp"
#include "receipt/topology/topology_input.hpp"

namespace receipt::topology {

template <class Json>
[[nodiscard]] common::Result<Parameter> parse_parameter(const common::JsonReader& r, const Json& node,
                                                        const std::string& path, std::size_t max_units);

template <class Json>
[[nodiscard]] std::optional<Parameter> accepted_parameter(const Json& node, std::size_t max_units);

}  // namespace receipt::topology
