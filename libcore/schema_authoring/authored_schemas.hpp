#pragma once
// The text of every schema the suite ships, generated from our own definitions
// (schema_authoring/). schemas/*.json are exactly these texts, written by
// `schema_gen --out schemas` and checked by `schema_gen --check schemas`.
//
//   for (const auto& [name, text] : schema_authoring::authored_schemas()) ...  // "receipt.v0.8.0", "{\n  ..."
#include <map>
#include <string>

namespace schema_authoring {

// File name without ".json" -> pretty JSON (2-space indent, trailing newline).
[[nodiscard]] std::map<std::string, std::string> authored_schemas();

}  // namespace schema_authoring
