// The JSON-Schema validator from common alone (common_tests links no other library): any
// library validates its own formats with it. Its full behaviour is tested against the walking
// validator and jsonschema in tests/receipt/schema/.
#include "common/schema/validator.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "common/json_document_shape.hpp"
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
// It does so for documents too big for their shape to be kept (below): these carry a long array.
TEST_CASE("common schema validator: a document's root member passes again only with the same bytes and schema") {
  const ojson schema = ojson::parse(R"({"type": "object", "properties": {
      "topology": {"type": "object", "properties": {"units": {"type": "array", "items": {"type": "integer", "minimum": 1}}}},
      "step": {"type": "integer"}}})");
  const ojson strict = ojson::parse(R"({"type": "object", "properties": {
      "topology": {"type": "object", "properties": {"units": {"type": "array", "maxItems": 3}}}}})");
  const common::schema::CompiledSchema compiled(schema);
  const common::schema::CompiledSchema other(strict);
  std::string pad = R"(, "pad": [0)";
  for (std::size_t i = 0; i < common::DocumentShape::kMaxNodes; ++i) pad += ",0";
  pad += "]";
  const auto document = [&pad](std::string units, const char* step) {
    auto doc = common::parse_json_document(R"({"topology": {"units": [)" + units +
                                           R"(], "name": "a name long enough to be kept"}, "step": )" + step + pad + "}");
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

// A stream's records mostly share one shape (common/json_document_shape.hpp, json_tree_shape.hpp):
// the validator keeps the last valid instance's shape and the answers of its checks that read
// values, and judges an instance of that shape whose values answer alike without walking it. Each
// document here has the shape of the first; each keyword that reads a value is made to answer
// otherwise after a valid one. Read as a JsonDocument and as an ordered_json tree, each must get
// the errors of a schema compiled for it alone, which has walked nothing before.
TEST_CASE("common schema validator: a document of the last valid one's shape is judged as if walked") {
  const ojson schema = ojson::parse(R"({
    "type": "object",
    "properties": {
      "id": {"type": "string", "pattern": "^w_[a-z0-9]+$"},
      "kind": {"enum": ["weight", "bias"]},
      "version": {"const": "1.0"},
      "lr": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
      "count": {"type": "integer"},
      "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "uniqueItems": true},
      "pair": {"const": [1.5, "x"]},
      "value": {"oneOf": [{"type": "number", "minimum": 0}, {"type": "number", "maximum": -10}]},
      "mode": {"type": "string"}
    },
    "propertyNames": {"minLength": 2},
    "if": {"properties": {"mode": {"const": "adam"}}},
    "then": {"properties": {"lr": {"maximum": 0.01}}}})");
  const common::schema::CompiledSchema compiled(schema);
  const auto document = [](const char* id, const char* kind, const char* version, const char* lr, const char* count,
                           const char* tags, const char* pair, const char* value, const char* mode) {
    return std::string(R"({"id":")") + id + R"(","kind":")" + kind + R"(","version":")" + version + R"(","lr":)" +
           lr + R"(,"count":)" + count + R"(,"tags":[)" + tags + R"(],"pair":[)" + pair + R"(],"value":)" + value +
           R"(,"mode":")" + mode + R"("})";
  };
  const std::string valid = document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd");
  const std::vector<std::string> others = {
      document("w_b2", "bias", "1.0", "0.25", "7.0", R"("x","y")", R"(1.5,"x")", "-20.5", "sgd"),  // valid
      document("w_B2", "weight", "1.0", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),   // pattern
      document("w_a1", "bia", "1.0", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),      // enum
      document("w_a1", "weight", "1.1", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),   // const
      document("w_a1", "weight", "1.0", "0.0", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),   // exclusiveMinimum
      document("w_a1", "weight", "1.0", "1.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),   // maximum
      document("w_a1", "weight", "1.0", "0.5", "4.5", R"("ab","cd")", R"(1.5,"x")", "0.5", "sgd"),   // integer
      document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","ab")", R"(1.5,"x")", "0.5", "sgd"),   // uniqueItems
      document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","abcde")", R"(1.5,"x")", "0.5", "sgd"),  // maxLength
      document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","cd")", R"(2.5,"x")", "0.5", "sgd"),   // const array
      document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "-5.5", "sgd"),  // oneOf: none
      document("w_a1", "weight", "1.0", "0.5", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "adam"),  // if / then
      document("w_a1", "weight", "1.0", "0.005", "3.0", R"("ab","cd")", R"(1.5,"x")", "0.5", "adam"),  // valid
  };
  const auto listed = [](const std::vector<common::Error>& errors) {
    std::string all;
    for (const auto& e : errors) all += e.where().json_path + " " + e.message() + ";";
    return all;
  };
  const auto errors_of = [&](const std::string& text) {
    auto doc = common::parse_json_document(text);
    REQUIRE(doc.ok());
    const std::string of_document = listed(compiled.validate(doc->root(), 8));
    CHECK(listed(compiled.validate(ojson::parse(text), 8)) == of_document);
    return of_document;
  };
  const auto walked = [&](const std::string& text) {
    return listed(common::schema::CompiledSchema(schema).validate(ojson::parse(text), 8));
  };
  REQUIRE(errors_of(valid) == "");
  std::size_t invalid = 0;
  for (const auto& other : others) {
    CAPTURE(other);
    const std::string want = walked(other);
    invalid += want.empty() ? 0 : 1;
    CHECK(errors_of(other) == want);  // after the valid one
    CHECK(errors_of(other) == want);  // after itself, valid or not
    CHECK(errors_of(valid) == "");
  }
  CHECK(compiled.is_valid(ojson::parse(valid)));
  CHECK_FALSE(compiled.is_valid(ojson::parse(others[2])));
  CHECK(invalid == others.size() - 2);
  // One keyword of every kind that reads a value failed, after a valid document of one shape.
  CHECK(walked(others[1]) == "/id must match pattern \"^w_[a-z0-9]+$\";");
  CHECK(walked(others[11]) == "/lr must be <= 0.01; must match \"then\" schema;");
}
