#pragma once
// The suite's JSON-Schema validator (common/schema/validator.hpp: keywords, messages, error
// paths) with the embedded schemas of the registry compiled once:
//
//   auto errors = schema_registry::validate(*find_schema("0.8.0"), doc);
//   if (!errors.empty()) return errors.front().at_file(path);
//
// A schema of the registry (find_schema) is compiled once, on first use, and kept; any other
// document is compiled on each call, so keep a CompiledSchema of your own to validate many
// documents against it. A schema keyword of the wrong JSON type makes validate() throw
// std::invalid_argument.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/json_document.hpp"

namespace schema_registry {

[[nodiscard]] std::vector<common::Error> validate(const nlohmann::ordered_json& schema,
                                                  const nlohmann::ordered_json& instance, std::size_t max_errors = 1);

// The same, on a JsonDocument's value (common/json_document.hpp): the same errors.
[[nodiscard]] std::vector<common::Error> validate(const nlohmann::ordered_json& schema, common::JsonView instance,
                                                  std::size_t max_errors = 1);

[[nodiscard]] inline bool is_valid(const nlohmann::ordered_json& schema, const nlohmann::ordered_json& instance) {
  return validate(schema, instance, 1).empty();
}

}  // namespace schema_registry
