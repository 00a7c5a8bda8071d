#include "schema_registry/validator.hpp"

#include "common/schema/compiled_schema.hpp"
#include "common/schema/validator.hpp"
#include "schema_registry/compiled_schema.hpp"

namespace schema_registry {

std::vector<common::Error> validate(const nlohmann::ordered_json& schema, const nlohmann::ordered_json& instance,
                                    std::size_t max_errors) {
  // The registry's schemas are compiled once (on first use) and kept; any other document is
  // compiled for this call.
  if (const auto* compiled = registry_compiled_schema(schema)) return compiled->validate(instance, max_errors);
  return common::schema::validate(schema, instance, max_errors);
}

std::vector<common::Error> validate(const nlohmann::ordered_json& schema, common::JsonView instance,
                                    std::size_t max_errors) {
  if (const auto* compiled = registry_compiled_schema(schema)) return compiled->validate(instance, max_errors);
  return common::schema::CompiledSchema(schema).validate(instance, max_errors);
}

}  // namespace schema_registry
