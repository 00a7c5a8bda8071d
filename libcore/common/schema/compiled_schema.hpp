#pragma once
// A JSON Schema compiled once into a tree of nodes, then run on any number of documents; the
// validator every library uses for its own formats (validator.hpp beside it is the one-call
// form). The receipt library keeps the compiled forms of the suite's embedded schemas
// (schema_registry/compiled_schema.hpp: find_compiled_schema).
//
//   common::schema::CompiledSchema mine(my_schema_json);   // compiles now
//   auto errors = mine.validate(doc);                      // [] when valid
//   bool ok = mine.is_valid(doc);
//
// Compilation resolves each keyword once: types become a bit mask, property names a hash
// table, `required` indices into it, `$ref` a pointer to the target's node (recursive
// references are fine), `enum` a hash set of its strings, patterns a matcher built once
// (pattern_matcher.hpp), `uniqueItems` a hash table check (JavaScript equality: 1 == 1.0).
// Results, error messages, JSON Pointers, error order and `max_errors` are exactly those of
// the validator that walked the schema document for every value (tests/receipt/schema/
// legacy_validator.hpp is that one; a differential test holds them equal).
//
// A schema whose keywords have the wrong JSON type (a "required" that is not an array of
// strings, a "minimum" that is not a number, a "pattern" std::regex rejects, ...) throws
// std::invalid_argument (std::regex_error for patterns) when compiled, where the walking
// validator threw when it reached that keyword. A `$ref` that resolves to nothing is not an
// error of the schema: a value that reaches it fails with "can't resolve reference <ref>".
// A CompiledSchema reads the schema document while compiling only; it is immutable and
// safe to use from many threads at once. Each thread keeps, per schema, the shape of the last
// valid instance it validated and the answers of the checks that read its values (shape_memo.hpp):
// an instance of that shape whose values answer alike is valid without a walk, as a stream's
// records mostly are.
#include <cstddef>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/json_document.hpp"

namespace common::schema {

class CompiledSchema {
 public:
  explicit CompiledSchema(const nlohmann::ordered_json& schema);
  ~CompiledSchema();
  CompiledSchema(const CompiledSchema&) = delete;
  CompiledSchema& operator=(const CompiledSchema&) = delete;

  // Errors in the order found, at most max(max_errors, 1); empty when valid.
  [[nodiscard]] std::vector<common::Error> validate(const nlohmann::ordered_json& instance,
                                                    std::size_t max_errors = 1) const;
  // The same validation of a JsonDocument's value (json_document.hpp): the same errors, paths
  // and order as for the ordered_json tree of the same text.
  [[nodiscard]] std::vector<common::Error> validate(common::JsonView instance, std::size_t max_errors = 1) const;
  [[nodiscard]] bool is_valid(const nlohmann::ordered_json& instance) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace common::schema
