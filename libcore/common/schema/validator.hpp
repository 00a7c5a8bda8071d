#pragma once
// A JSON Schema (draft 2020-12) validator for the keywords the suite's schemas use:
//   type, enum, const, properties, required, additionalProperties, patternProperties,
//   propertyNames, minProperties, maxProperties, dependentRequired, items, prefixItems,
//   contains, minItems, maxItems, uniqueItems, minLength, maxLength, pattern,
//   minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
//   allOf, anyOf, oneOf, not, if/then/else, $ref ("#/$defs/..", "#/definitions/..", "#").
// Other keywords (annotations such as x-order, format, title) are ignored.
// Numbers compare as JavaScript numbers (1 == 1.0; "integer" accepts 2.0).
// Patterns are ECMAScript regular expressions, searched (not anchored), as Ajv does.
//
//   auto errors = common::schema::validate(my_schema, doc);
//   if (!errors.empty()) return errors.front().at_file(path);
//
// Each Error is ErrorCode::malformed with where().json_path = the instance's JSON
// Pointer and an Ajv-style message ("must have required property 'step'",
// "must NOT have additional properties ('extra')", "must be integer", ...).
// Validation stops after `max_errors` errors (Ajv's default is the first one).
//
// This call compiles `schema` (compiled_schema.hpp) each time: keep a CompiledSchema to
// validate many documents against one schema. schema_registry::validate (schema_registry/
// validator.hpp) is this validator with the suite's embedded schemas compiled once.
// A schema keyword of the wrong JSON type makes validate() throw std::invalid_argument.
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace common::schema {

[[nodiscard]] std::vector<common::Error> validate(const nlohmann::ordered_json& schema,
                                                  const nlohmann::ordered_json& instance, std::size_t max_errors = 1);

}  // namespace common::schema
