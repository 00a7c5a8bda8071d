#pragma once
// One schema file being authored: the root object, its "$defs", and where it lives
// ($id under our own base). Versions are built by copying the previous version's
// document and applying that version's changes (receipt_versions.cpp).
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schema_authoring/node.hpp"

namespace schema_authoring {

inline constexpr std::string_view kIdBase = "https://schemas.nnaudit.invalid/";

class SchemaDocument {
 public:
  SchemaDocument(std::string family, std::string version, Node root);

  // "<family>.v<version>", the file name without ".json".
  [[nodiscard]] std::string name() const { return family_ + ".v" + version_; }
  [[nodiscard]] const std::string& version() const { return version_; }

  // The next version starts as a copy of this one, with a new version and a note of
  // what it changed.
  [[nodiscard]] SchemaDocument next(std::string version, std::string changes) const;

  SchemaDocument& title(std::string text);
  SchemaDocument& summary(std::string text);  // what the format is for; with the changes, the file's "description"

  Node& root() { return root_; }
  // Adds a definition (at the end) or replaces one (in place).
  SchemaDocument& define(std::string_view name, Node schema);
  SchemaDocument& drop(std::string_view name);
  template <class Fn>
  SchemaDocument& edit(std::string_view name, Fn&& fn) {
    Node n = definition(name);
    fn(n);
    return define(name, std::move(n));
  }
  [[nodiscard]] const Node& definition(std::string_view name) const;

  [[nodiscard]] Json json() const;

 private:
  std::string family_;
  std::string version_;
  std::string title_;
  std::string summary_;
  std::string changes_;
  Node root_;
  std::vector<std::pair<std::string, Node>> defs_;
};

// A format's versions: `first`, then each delta applied to the version before it.
using VersionDelta = SchemaDocument (*)(const SchemaDocument& previous);
[[nodiscard]] std::vector<SchemaDocument> history(SchemaDocument first, std::initializer_list<VersionDelta> deltas);

}  // namespace schema_authoring
