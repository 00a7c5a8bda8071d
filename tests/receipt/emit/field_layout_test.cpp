// The emitter's field tables follow the schemas' x-order: for every receipt version
// a layout applies to, the fields it writes appear in the order the schema's x-order
// gives them, and each one is a property the schema declares.
#include "receipt/emit/field_layout.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/canonical_json.hpp"
#include "schema_registry/schema_registry.hpp"

namespace {

using nlohmann::ordered_json;

const ordered_json* def_of(const ordered_json& schema, std::string_view name) {
  if (name.empty()) return &schema;
  const auto defs = schema.find("$defs");
  if (defs == schema.end()) return nullptr;
  const auto it = defs->find(std::string(name));
  return it == defs->end() ? nullptr : &*it;
}

// Returns how many layout fields were checked against this schema.
std::size_t check_layouts(std::span<const receipt::emit::Layout* const> layouts, const std::string& version) {
  const ordered_json* schema = schema_registry::find_schema(version);
  REQUIRE(schema != nullptr);
  std::size_t checked = 0;
  for (const auto* layout : layouts) {
    if (layout->schema_def == "-") continue;
    const ordered_json* def = def_of(*schema, layout->schema_def);
    if (def == nullptr || !def->contains("x-order")) continue;
    CAPTURE(version);
    CAPTURE(std::string(layout->schema_def));
    const auto& order = (*def)["x-order"];
    const auto& props = def->contains("properties") ? (*def)["properties"] : ordered_json::object();
    long last = -1;
    for (const auto& f : layout->fields) {
      CAPTURE(std::string(f.key));
      long pos = -1;
      for (std::size_t i = 0; i < order.size(); ++i)
        if (order[i] == std::string(f.key)) pos = static_cast<long>(i);
      if (pos < 0) {
        // Fields later versions added are absent from earlier x-orders; they must be
        // undeclared there too (a closed schema then rejects them before emission).
        CHECK_FALSE(props.contains(std::string(f.key)));
        continue;
      }
      CHECK(pos > last);
      last = pos;
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("field_layout: Mazur layouts follow receipt.v0.1.0 x-order") {
  CHECK(check_layouts(receipt::emit::mazur_layouts(), "0.1.0") > 60);
}

TEST_CASE("field_layout: general layouts follow x-order of receipt v0.2.0 to v0.8.0") {
  for (const char* v : {"0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0"}) {
    CAPTURE(v);
    CHECK(check_layouts(receipt::emit::general_layouts(), v) > 60);
  }
}

TEST_CASE("field_layout: every layout key is plain, as the writer takes a program's keys without a look") {
  std::size_t keys = 0;
  for (const auto layouts : {receipt::emit::mazur_layouts(), receipt::emit::general_layouts()}) {
    for (const receipt::emit::Layout* layout : layouts) {
      for (const auto& field : layout->fields) {
        common::CompactJsonWriter checked, trusted;
        checked.begin_object();
        checked.key(field.key);
        trusted.begin_object();
        trusted.program_key(field.key);
        CAPTURE(field.key);
        CHECK(trusted.text() == checked.text());
        ++keys;
      }
    }
  }
  CHECK(keys > 150);
}
