// The JSON-Schema validator from common alone (common_tests links no other library): any
// library validates its own formats with it. Its full behaviour is tested against the walking
// validator and jsonschema in tests/receipt/schema/.
#include "common/schema/validator.hpp"

#include <doctest/doctest.h>

#include "common/json_document_reader.hpp"
#include "common/schema/compiled_schema.hpp"

using ojson = nlohmann::ordered_json;

TEST_CASE("common schema validator: a format of one's own, one-line errors with the instance path") {
  const ojson schema = ojson::parse(R"({
    "type": "object", "required": ["name", "sizes"], "additionalProperties": false,
    "properties": {"name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                   "sizes": {"type": "array", "items": {"type": "integer", "minimum": 1}, "uniqueItems": true}}})");
  CHECK(common::schema::validate(schema, ojson::parse(R"({"name":"wide_64","sizes":[64,32]})")).empty());
  const auto errors = common::schema::validate(schema, ojson::parse(R"({"name":"wide_64","sizes":[64,0]})"));
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().where().json_path == "/sizes/1");
  CHECK(errors.front().message() == "must be >= 1");
  const common::schema::CompiledSchema compiled(schema);
  CHECK_FALSE(compiled.is_valid(ojson::parse(R"({"name":"Wide","sizes":[1]})")));
  CHECK_FALSE(compiled.is_valid(ojson::parse(R"({"name":"w","sizes":[2,2.0]})")));
  CHECK(compiled.validate(ojson::parse(R"({"name":"w","sizes":[1],"x":0})")).front().message() ==
        "must NOT have additional properties ('x')");
}

// A stream's records repeat members byte for byte; the validator keeps which root members passed
// as their bytes, so each must be found again only where the bytes are the same and the schema too.
TEST_CASE("common schema validator: a document's root member passes again only with the same bytes and schema") {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "topology": {"type": "object", "properties": {"units": {"type": "array", "items": {"type": "integer", "minimum": 1}}}},
      "step": {"type": "integer"}}})");
  const ojson strict = ojson::parse(R"({"type": "object", "properties": {
      "topology": {"type": "object", "properties": {"units": {"type": "array", "maxItems": 3}}}}})");
  const common::schema::CompiledSchema compiled(schema);
  const common::schema::CompiledSchema other(strict);
  const auto document = [](std::string units, const char* step) {
    auto doc = common::parse_json_document(R"({"topology": {"units": [)" + units + R"(], "name": "a name long enough to be kept"}, "step": )" + step + "}");
    REQUIRE(doc.ok());
    return std::move(*doc);
  };
  const auto errors = [](const common::schema::CompiledSchema& s, const common::JsonDocument& doc) {
    std::string all;
    for (const auto& e : s.validate(doc.root(), 8)) all += e.where().json_path + " " + e.message() + ";";
    return all;
  };
  const auto good = document("1, 2, 3, 4", "1");
  CHECK(errors(compiled, good) == "");
  CHECK(errors(compiled, document("1, 2, 3, 4", "2")) == "");  // the same topology, another step
  // One byte changed: checked again, and its error found.
  CHECK(errors(compiled, document("1, 2, 0, 4", "3")) == "/topology/units/2 must be >= 1;");
  CHECK(errors(compiled, document("1, 2, 3, 4", "4")) == "");
  // The same bytes under another schema are that schema's to judge.
  CHECK(errors(other, document("1, 2, 3, 4", "5")) == "/topology/units must NOT have more than 3 items;");
  CHECK(errors(compiled, document("1, 2, 3, 4", "\"six\"")) == "/step must be integer;");
}
