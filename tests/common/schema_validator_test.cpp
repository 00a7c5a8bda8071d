// The JSON-Schema validator from common alone (common_tests links no other library): any
// library validates its own formats with it. Its full behaviour is tested against the walking
// validator and jsonschema in tests/receipt/schema/.
#include "common/schema/validator.hpp"

#include <doctest/doctest.h>

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
