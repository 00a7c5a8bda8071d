#pragma once
// The compiled forms of the suite's embedded schemas (schema_registry.hpp). The compiler
// itself is common::schema::CompiledSchema (common/schema/compiled_schema.hpp), named here too.
//
//   const auto* s = schema_registry::find_compiled_schema("0.8.0");  // built on first use
//   auto errors = s->validate(doc);                                   // as validate(*find_schema(..), doc)
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/schema/compiled_schema.hpp"

namespace schema_registry {

using common::schema::CompiledSchema;

// The compiled form of a schema the registry ships (schema_registry.hpp names), built on
// first use (once, whichever thread asks first) and kept for the life of the process;
// nullptr for a name find_schema() does not know.
[[nodiscard]] const CompiledSchema* find_compiled_schema(std::string_view id_or_version);

// The compiled form of `schema` when it is one of the registry's documents (the object
// find_schema() returned, compared by address); nullptr for any other document.
[[nodiscard]] const CompiledSchema* registry_compiled_schema(const nlohmann::ordered_json& schema);

}  // namespace schema_registry
