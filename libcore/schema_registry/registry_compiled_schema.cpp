#include "schema_registry/compiled_schema.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "common/resident_heap.hpp"
#include "schema_registry/registry_slots.hpp"
#include "schema_registry/schema_registry.hpp"

namespace schema_registry {

using ojson = nlohmann::ordered_json;

namespace {

struct RegistrySlot {
  std::once_flag once;
  std::unique_ptr<CompiledSchema> compiled;
};

// One slot per embedded schema (registry_slots.hpp), compiled on first use.
std::vector<RegistrySlot>& registry_slots() {
  static auto* slots = new std::vector<RegistrySlot>(registry_slot_count());
  return *slots;
}

}  // namespace

const CompiledSchema* registry_compiled_schema(const ojson& schema) {
  const auto slot = registry_slot_of(schema);
  if (!slot) return nullptr;
  auto& s = registry_slots()[*slot];
  // Built apart (common/resident_heap.hpp): every thread that validates reads it.
  std::call_once(s.once, [&] { common::build_resident([&] { s.compiled = std::make_unique<CompiledSchema>(schema); }); });
  return s.compiled.get();
}

const CompiledSchema* find_compiled_schema(std::string_view id_or_version) {
  const ojson* schema = find_schema(id_or_version);
  return schema == nullptr ? nullptr : registry_compiled_schema(*schema);
}

}  // namespace schema_registry
