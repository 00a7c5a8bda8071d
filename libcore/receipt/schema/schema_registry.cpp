#include "receipt/schema/schema_registry.hpp"

#include <algorithm>
#include <map>

#include "receipt/schema/embedded_schemas.hpp"

namespace receipt::schema {
namespace {

using ojson = nlohmann::ordered_json;

const std::map<std::string, ojson, std::less<>>& registry() {
  static const auto* all = [] {
    auto* m = new std::map<std::string, ojson, std::less<>>();
    for (const auto& e : embedded_schemas()) {
      // The build embeds files that the schema tests parse; a failure here is our bug.
      (*m)[std::string(e.name)] = ojson::parse(e.text);
    }
    return m;
  }();
  return *all;
}

}  // namespace

const ojson* find_schema(std::string_view id_or_version) {
  std::string name(id_or_version);
  if (name.ends_with(".json")) name.resize(name.size() - 5);
  if (!name.empty() && name.front() >= '0' && name.front() <= '9') name = "receipt.v" + name;
  const auto& r = registry();
  const auto it = r.find(name);
  return it == r.end() ? nullptr : &it->second;
}

std::vector<std::string> schema_names() {
  std::vector<std::string> names;
  for (const auto& [name, _] : registry()) names.push_back(name);
  return names;
}

const std::vector<std::string>& receipt_versions() {
  static const std::vector<std::string> versions = [] {
    std::vector<std::string> v;
    for (const auto& [name, _] : registry()) {
      if (name.starts_with("receipt.v")) v.push_back(name.substr(9));
    }
    std::sort(v.begin(), v.end());
    return v;
  }();
  return versions;
}

std::string pick_receipt_version(const ojson& receipt, bool* known) {
  if (known != nullptr) *known = false;
  if (receipt.is_object()) {
    const auto sv = receipt.find("schema_version");
    if (sv != receipt.end() && sv->is_string()) {
      const auto& versions = receipt_versions();
      const std::string& v = sv->get_ref<const std::string&>();
      if (std::find(versions.begin(), versions.end(), v) != versions.end()) {
        if (known != nullptr) *known = true;
        return v;
      }
    }
  }
  return "0.2.0";
}

std::string pick_framework_trace_version(const ojson& sidecar) {
  if (sidecar.is_object()) {
    const auto f = sidecar.find("format");
    if (f != sidecar.end() && f->is_string()) {
      const std::string& s = f->get_ref<const std::string&>();
      if (s.starts_with("framework-trace.v") && find_schema(s) != nullptr) return s.substr(17);
    }
  }
  return "0.1.0";
}

}  // namespace receipt::schema
