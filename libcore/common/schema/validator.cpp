#include "common/schema/validator.hpp"

#include "common/schema/compiled_schema.hpp"

namespace common::schema {

std::vector<common::Error> validate(const nlohmann::ordered_json& schema, const nlohmann::ordered_json& instance,
                                    std::size_t max_errors) {
  return CompiledSchema(schema).validate(instance, max_errors);
}

}  // namespace common::schema
