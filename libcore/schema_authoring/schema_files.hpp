#pragma once
// Writing the authored schemas to a directory, and checking a directory against them
// (what `schema_gen --out` and `schema_gen --check` do).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"

namespace schema_authoring {

// Where a directory first departs from what we generate. Not an error: a finding.
struct SchemaMismatch {
  std::string file;                             // path of the file
  std::string json_path;                        // JSON Pointer of the first difference ("" = the file as a whole)
  std::string what;                             // e.g. "differs from the generated schema", "missing"
  [[nodiscard]] std::string to_string() const;  // "file: /json/path: what"
};

// Writes <dir>/<name>.json for every authored schema, each atomically.
[[nodiscard]] common::Status write_schema_files(common::FileSystem& fs, const std::string& dir);

// The first file (in name order) that is missing, differs, or is a *.json we do not
// generate; nullopt when the directory holds exactly what we generate.
[[nodiscard]] common::Result<std::optional<SchemaMismatch>> check_schema_files(common::FileSystem& fs,
                                                                               const std::string& dir);

// JSON Pointer of the first place two documents differ, key order included; nullopt if identical.
[[nodiscard]] std::optional<std::string> first_json_difference(const nlohmann::ordered_json& a,
                                                               const nlohmann::ordered_json& b);

}  // namespace schema_authoring
