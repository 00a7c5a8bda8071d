// The JSON-Schema validator from common alone (common_tests links no other library): any
// library validates its own formats with it. Its full behaviour is tested against the walking
// validator and jsonschema in tests/receipt/schema/.
#include "common/schema/validator.hpp"

#include <doctest/doctest.h>

#include <random>
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

// The same, on seeded random changes of values: a schema with every keyword that reads a value
// (and combinators that depend on them), a document whose leaves take values from small pools
// that straddle each keyword's bounds. Each document, read both ways by one long-lived schema,
// must get the errors of a schema compiled for it alone.
TEST_CASE("common schema validator: random values in one shape are judged as if walked") {
  const ojson schema = ojson::parse(R"({
    "type": "object",
    "properties": {
      "n": {"type": "array", "items": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "number", "maximum": -1}]}},
      "u": {"type": "array", "uniqueItems": true, "items": {"type": "number"}},
      "m": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 10},
      "s": {"type": "array", "items": {"type": "string", "pattern": "^[a-c]+$", "minLength": 2, "maxLength": 3}},
      "e": {"enum": ["x", 1, 2.5, null, true]},
      "c": {"const": {"k": [1, "y"]}},
      "o": {"type": "object", "additionalProperties": {"not": {"type": "string", "maxLength": 1}}},
      "x": {"type": "array", "contains": {"type": "number", "minimum": 5}},
      "w": {"oneOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "b$"}]}
    },
    "if": {"properties": {"m": {"minimum": 5}}},
    "then": {"properties": {"e": {"enum": ["x", 1]}}},
    "else": {"properties": {"w": {"maxLength": 3}}}})");
  const common::schema::CompiledSchema compiled(schema);
  // Values that pass (first) and that fail (second) the keywords where they are put; one in
  // twenty a failing one, so that documents of both verdicts come.
  using Pool = std::pair<std::vector<std::string>, std::vector<std::string>>;
  const Pool numbers = {{"-2.0", "-1.0", "0.0", "1.0", "2.0", "3.0", "4.0", "5.0", "6.0", "7.0", "8.0", "9.0", "5.5"},
                        {"-0.5", "0.5", "10.0", "12.25"}};
  const Pool strings = {{"\"ab\"", "\"abc\"", "\"ba\"", "\"ab\\u0063\"", "\"ca\""}, {"\"a\"", "\"abcd\"", "\"ax\"", "\"b\""}};
  const Pool either = {{"\"abc\"", "\"acc\"", "\"bb\"", "\"cab\""}, {"\"ab\"", "\"ba\"", "\"abcb\""}};  // oneOf
  // The enum's leaf changes seldom: it draws its failing strings and floats among the others.
  const Pool enums = {{"\"x\"", "1.0", "1", "\"y\"", "3.5", "2.5"}, {"null", "true", "false"}};
  std::mt19937 random(20261201);
  const auto pick = [&random](const Pool& pool) {
    const auto& from = random() % 20 == 0 ? pool.second : pool.first;
    return from[random() % from.size()];
  };
  const auto listed = [](const std::vector<common::Error>& errors) {
    std::string all;
    for (const auto& e : errors) all += e.where().json_path + " " + e.message() + ";";
    return all;
  };
  // The document's leaves, by place, with the pool each draws from: every round changes one or
  // two of them (the walk kept is then the last one's but for those), now and then the shape.
  const std::vector<const Pool*> leaves = {&numbers, &numbers, &numbers, &numbers, &numbers, &numbers, &numbers,
                                           &strings, &strings, &strings, &enums, &strings, &strings,
                                           &numbers, &numbers, &numbers, &either};
  std::vector<std::string> value;
  for (const Pool* pool : leaves) value.push_back(pool->first[1]);
  std::size_t invalid = 0, cases = 0;
  for (int round = 0; round < 3000; ++round) {
    for (int changes = 1 + static_cast<int>(random() % 2); changes > 0; --changes) {
      const std::size_t leaf = random() % leaves.size();
      value[leaf] = pick(*leaves[leaf]);
    }
    const bool wide = round % 97 == 96;  // another shape: one more element in "n"
    const auto& v = value;
    const std::string text = R"({"n":[)" + v[0] + "," + v[1] + "," + v[2] + (wide ? ",0.0" : "") + R"(],"u":[)" + v[3] +
                             "," + v[4] + "," + v[5] + R"(],"m":)" + v[6] + R"(,"s":[)" + v[7] + "," + v[8] + "," + v[9] +
                             R"(],"e":)" + v[10] + R"(,"c":{"k":[)" + (round % 41 == 40 ? "2" : "1") + R"(,"y"]},"o":{"p":)" +
                             v[11] + R"(,"q":)" + v[12] + R"(},"x":[)" + v[13] + "," + v[14] + "," + v[15] + R"(],"w":)" +
                             v[16] + "}";
    CAPTURE(text);
    auto doc = common::parse_json_document(text);
    REQUIRE(doc.ok());
    const std::string want = listed(common::schema::CompiledSchema(schema).validate(ojson::parse(text), 8));
    CHECK(listed(compiled.validate(doc->root(), 8)) == want);
    CHECK(listed(compiled.validate(ojson::parse(text), 8)) == want);
    invalid += want.empty() ? 0 : 1;
    ++cases;
  }
  // Both verdicts drawn often: the pools straddle the bounds.
  CHECK(invalid > cases / 10);
  CHECK(invalid < cases * 9 / 10);
}
