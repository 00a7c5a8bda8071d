#pragma once
// The suite's JSON Schemas (schemas/*.json, embedded at build time), parsed once.
//
//   const auto* s = schema_registry::find_schema("receipt.v0.8.0");   // or "0.8.0", "receipt.v0.8.0.json"
//   const auto* t = schema_registry::find_schema("framework-trace.v0.7.0");
//   const auto* i = schema_registry::find_schema("topology-input.v0.4.0");
//   auto errors = schema_registry::validate(*s, doc);                // schema_registry/validator.hpp
//
// A bare version ("0.8.0") names a receipt schema. Unknown names give nullptr.
// Schemas are nlohmann::ordered_json so "x-order" and property order read as written.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"

namespace schema_registry {

[[nodiscard]] const nlohmann::ordered_json* find_schema(std::string_view id_or_version);

// All embedded schema names, sorted ("framework-trace.v0.1.0", ..., "topology-input.v0.4.0").
[[nodiscard]] std::vector<std::string> schema_names();

// Receipt schema versions shipped, oldest first ("0.1.0" ... "0.8.0").
[[nodiscard]] const std::vector<std::string>& receipt_versions();

// The receipt schema version a document is validated against, as the reference
// picks it: its own "schema_version" when that is a known version, else "0.2.0".
// `known` (optional) tells whether the document's own version was known.
[[nodiscard]] std::string pick_receipt_version(const nlohmann::ordered_json& receipt, bool* known = nullptr);
[[nodiscard]] std::string pick_receipt_version(common::JsonView receipt, bool* known = nullptr);

// The framework-trace schema version a sidecar's "format" names
// ("framework-trace.v0.7.0" -> "0.7.0"); "0.1.0" when it names none we ship.
[[nodiscard]] std::string pick_framework_trace_version(const nlohmann::ordered_json& sidecar);
[[nodiscard]] std::string pick_framework_trace_version(common::JsonView sidecar);

}  // namespace schema_registry
