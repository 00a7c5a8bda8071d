#pragma once
// The JSON Schemas of schemas/*.json, compiled into the library (see
// embed_schemas.cmake). Names are file names without ".json", e.g. "receipt.v0.8.0".
#include <span>
#include <string_view>

namespace schema_registry {

struct EmbeddedSchema {
  std::string_view name;
  std::string_view text;
};

std::span<const EmbeddedSchema> embedded_schemas();

}  // namespace schema_registry
