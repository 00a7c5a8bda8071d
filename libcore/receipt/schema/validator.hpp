#pragma once
// A JSON Schema (draft 2020-12) validator for the keywords our schemas use:
//   type, enum, const, properties, required, additionalProperties, patternProperties,
//   propertyNames, minProperties, maxProperties, dependentRequired, items, prefixItems,
//   contains, minItems, maxItems, uniqueItems, minLength, maxLength, pattern,
//   minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
//   allOf, anyOf, oneOf, not, if/then/else, $ref ("#/$defs/..", "#/definitions/..", "#").
// Other keywords (annotations such as x-order, format, title) are ignored.
// Numbers compare as JavaScript numbers (1 == 1.0; "integer" accepts 2.0).
// Patterns are ECMAScript regular expressions, searched (not anchored), as Ajv does.
//
//   auto errors = receipt::schema::validate(*find_schema("0.8.0"), doc);
//   if (!errors.empty()) return errors.front().at_file(path);
//
// Each Error is ErrorCode::malformed with where().json_path = the instance's JSON
// Pointer and an Ajv-style message ("must have required property 'step'",
// "must NOT have additional properties ('extra')", "must be integer", ...).
// Validation stops after `max_errors` errors (Ajv's default is the first one).
//
// The schema runs compiled (compiled_schema.hpp): a schema of the registry (find_schema)
// is compiled once, on first use, and kept; any other document is compiled on each call,
// so keep a CompiledSchema of your own to validate many documents against it. A schema
// keyword of the wrong JSON type makes validate() throw std::invalid_argument.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace receipt::schema {

[[nodiscard]] std::vector<common::Error> validate(const nlohmann::ordered_json& schema,
                                                  const nlohmann::ordered_json& instance, std::size_t max_errors = 1);

[[nodiscard]] inline bool is_valid(const nlohmann::ordered_json& schema, const nlohmann::ordered_json& instance) {
  return validate(schema, instance, 1).empty();
}

}  // namespace receipt::schema
