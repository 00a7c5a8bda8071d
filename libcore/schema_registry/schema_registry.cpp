#include "schema_registry/schema_registry.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "common/json_fast_reader.hpp"
#include "common/json_input.hpp"
#include "schema_registry/embedded_schemas.hpp"
#include "schema_registry/registry_slots.hpp"

namespace schema_registry {
namespace {

using ojson = nlohmann::ordered_json;

// One embedded schema, parsed on first use: a process that validates one receipt parses one
// schema, not all twenty (parsing them all was three quarters of a `bp verify general` run).
struct Entry {
  std::string_view name;
  std::string_view text;
  std::once_flag once;
  std::unique_ptr<const ojson> doc;
  std::atomic<const ojson*> published{nullptr};  // doc, once parsed (read by registry_slot_of)
};

std::vector<std::unique_ptr<Entry>>& entries() {
  static auto* all = [] {
    auto* v = new std::vector<std::unique_ptr<Entry>>();
    for (const auto& e : embedded_schemas()) {
      auto x = std::make_unique<Entry>();
      x->name = e.name;
      x->text = e.text;
      v->push_back(std::move(x));
    }
    // embedded_schemas() is sorted by file name; keep the look-up a binary search.
    std::sort(v->begin(), v->end(), [](const auto& a, const auto& b) { return a->name < b->name; });
    return v;
  }();
  return *all;
}

const ojson* parsed(Entry& e) {
  // The build embeds files that the schema tests parse; a failure here is our bug.
  std::call_once(e.once, [&] {
    // The suite's own reader (common/json_fast_reader.hpp) reads them several times faster than
    // ojson::parse, which matters to a process that verifies one receipt.
    auto fast = common::fast_read_json(e.text, common::kMaxJsonNestingDepth);
    e.doc = std::make_unique<const ojson>(fast ? std::move(*fast) : ojson::parse(e.text));
    e.published.store(e.doc.get(), std::memory_order_release);
  });
  return e.doc.get();
}

}  // namespace

const ojson* find_schema(std::string_view id_or_version) {
  std::string name(id_or_version);
  if (name.ends_with(".json")) name.resize(name.size() - 5);
  if (!name.empty() && name.front() >= '0' && name.front() <= '9') name = "receipt.v" + name;
  auto& all = entries();
  const auto it = std::lower_bound(all.begin(), all.end(), name,
                                   [](const auto& e, const std::string& n) { return e->name < n; });
  if (it == all.end() || (*it)->name != name) return nullptr;
  return parsed(**it);
}

std::vector<std::string> schema_names() {
  std::vector<std::string> names;
  for (const auto& e : entries()) names.emplace_back(e->name);
  return names;
}

std::size_t registry_slot_count() { return entries().size(); }

std::optional<std::size_t> registry_slot_of(const ojson& schema) {
  const auto& all = entries();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i]->published.load(std::memory_order_acquire) == &schema) return i;
  }
  return std::nullopt;
}

const std::vector<std::string>& receipt_versions() {
  static const std::vector<std::string> versions = [] {
    std::vector<std::string> v;
    for (const auto& e : entries()) {
      if (e->name.starts_with("receipt.v")) v.emplace_back(e->name.substr(9));
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

std::string pick_receipt_version(common::JsonView receipt, bool* known) {
  if (known != nullptr) *known = false;
  if (receipt.is_object()) {
    const auto sv = receipt.find("schema_version");
    if (sv && sv->is_string()) {
      const auto& versions = receipt_versions();
      if (std::find(versions.begin(), versions.end(), sv->string()) != versions.end()) {
        if (known != nullptr) *known = true;
        return std::string(sv->string());
      }
    }
  }
  return "0.2.0";
}

namespace {

std::string framework_trace_version_of(std::string_view format) {
  if (format.starts_with("framework-trace.v") && find_schema(format) != nullptr) return std::string(format.substr(17));
  return "0.1.0";
}

}  // namespace

std::string pick_framework_trace_version(const ojson& sidecar) {
  if (sidecar.is_object()) {
    const auto f = sidecar.find("format");
    if (f != sidecar.end() && f->is_string()) return framework_trace_version_of(f->get_ref<const std::string&>());
  }
  return "0.1.0";
}

std::string pick_framework_trace_version(common::JsonView sidecar) {
  if (sidecar.is_object()) {
    const auto f = sidecar.find("format");
    if (f && f->is_string()) return framework_trace_version_of(f->string());
  }
  return "0.1.0";
}

}  // namespace schema_registry
