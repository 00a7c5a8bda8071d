#include "schema_authoring/schema_document.hpp"

#include <algorithm>
#include <stdexcept>

namespace schema_authoring {

SchemaDocument::SchemaDocument(std::string family, std::string version, Node root)
    : family_(std::move(family)), version_(std::move(version)), root_(std::move(root)) {}

SchemaDocument SchemaDocument::next(std::string version, std::string changes) const {
  SchemaDocument out = *this;
  out.version_ = std::move(version);
  out.changes_ = std::move(changes);
  return out;
}

SchemaDocument& SchemaDocument::title(std::string text) {
  title_ = std::move(text);
  return *this;
}

SchemaDocument& SchemaDocument::summary(std::string text) {
  summary_ = std::move(text);
  return *this;
}

SchemaDocument& SchemaDocument::define(std::string_view name, Node schema) {
  auto it = std::find_if(defs_.begin(), defs_.end(), [&](const auto& d) { return d.first == name; });
  if (it != defs_.end())
    it->second = std::move(schema);
  else
    defs_.emplace_back(std::string(name), std::move(schema));
  return *this;
}

SchemaDocument& SchemaDocument::drop(std::string_view name) {
  auto it = std::find_if(defs_.begin(), defs_.end(), [&](const auto& d) { return d.first == name; });
  if (it == defs_.end()) throw std::logic_error("schema authoring: no definition '" + std::string(name) + "'");
  defs_.erase(it);
  return *this;
}

const Node& SchemaDocument::definition(std::string_view name) const {
  auto it = std::find_if(defs_.begin(), defs_.end(), [&](const auto& d) { return d.first == name; });
  if (it == defs_.end()) throw std::logic_error("schema authoring: no definition '" + std::string(name) + "'");
  return it->second;
}

Json SchemaDocument::json() const {
  Json out = Json::object();
  out["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  out["$id"] = std::string(kIdBase) + name() + ".json";
  out["title"] = title_ + ", v" + version_;
  std::string description = summary_;
  if (!changes_.empty()) {
    if (!description.empty()) description += ' ';  // appends: GCC 12 at -O3 misreads a literal + a temporary
    description += "New in v";
    description += version_;
    description += ": ";
    description += changes_;
  }
  if (!description.empty()) out["description"] = description;
  for (const auto& [k, v] : root_.json().items()) out[k] = v;
  if (!defs_.empty()) {
    Json defs = Json::object();
    for (const auto& [name, schema] : defs_) defs[name] = schema.json();
    out["$defs"] = std::move(defs);
  }
  return out;
}

std::vector<SchemaDocument> history(SchemaDocument first, std::initializer_list<VersionDelta> deltas) {
  std::vector<SchemaDocument> out{std::move(first)};
  for (const VersionDelta delta : deltas) {
    SchemaDocument next = delta(out.back());
    out.push_back(std::move(next));
  }
  return out;
}

}  // namespace schema_authoring
