#pragma once
// Which of the registry's schemas a document is, by address, without parsing the others:
// compiled_schema.cpp keeps one compiled form per slot. Internal to schema_registry.
#include <cstddef>
#include <optional>

#include <nlohmann/json.hpp>

namespace schema_registry {

// Number of embedded schemas (slots 0 .. count-1).
[[nodiscard]] std::size_t registry_slot_count();

// The slot of `schema` when it is a document find_schema() returned; nullopt otherwise.
[[nodiscard]] std::optional<std::size_t> registry_slot_of(const nlohmann::ordered_json& schema);

}  // namespace schema_registry
