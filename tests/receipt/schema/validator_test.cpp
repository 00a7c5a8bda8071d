#include "schema_registry/validator.hpp"

#include <doctest/doctest.h>

#include <string>

using nlohmann::ordered_json;

namespace {

// First error as "path: message", or "" when valid.
std::string first_error(const char* schema, const char* instance) {
  const auto s = ordered_json::parse(schema);
  const auto v = ordered_json::parse(instance);
  const auto errors = schema_registry::validate(s, v);
  if (errors.empty()) return "";
  return errors.front().where().json_path + ": " + errors.front().message();
}

}  // namespace

TEST_CASE("validator: type, integer accepts 2.0, number accepts integers") {
  CHECK(first_error(R"({"type":"integer"})", "2.0") == "");
  CHECK(first_error(R"({"type":"integer"})", "2.5") == ": must be integer");
  CHECK(first_error(R"({"type":"number"})", "3") == "");
  CHECK(first_error(R"({"type":"string"})", "3") == ": must be string");
  CHECK(first_error(R"({"type":["string","null"]})", "null") == "");
  CHECK(first_error(R"({"type":["string","null"]})", "true") == ": must be string,null");
  CHECK(first_error(R"({"type":"boolean"})", "0") == ": must be boolean");
}

TEST_CASE("validator: required, additionalProperties, nested paths") {
  const char* s = R"({"type":"object","required":["a"],"additionalProperties":false,
                     "properties":{"a":{"type":"object","properties":{"b/c":{"type":"integer","minimum":1}}}}})";
  CHECK(first_error(s, R"({"a":{"b/c":1}})") == "");
  CHECK(first_error(s, R"({})") == ": must have required property 'a'");
  CHECK(first_error(s, R"({"a":{},"z":1})") == ": must NOT have additional properties ('z')");
  CHECK(first_error(s, R"({"a":{"b/c":0}})") == "/a/b~1c: must be >= 1");
}

TEST_CASE("validator: $ref into $defs, items, array bounds, uniqueItems") {
  const char* s = R"({"$defs":{"Id":{"type":"string","pattern":"^[a-z][0-9]+$"}},
                     "type":"array","minItems":1,"maxItems":3,"uniqueItems":true,"items":{"$ref":"#/$defs/Id"}})";
  CHECK(first_error(s, R"(["a1","b2"])") == "");
  CHECK(first_error(s, R"([])") == ": must NOT have fewer than 1 items");
  CHECK(first_error(s, R"(["a1","a1"])") == ": must NOT have duplicate items (items ## 0 and 1 are identical)");
  CHECK(first_error(s, R"(["a1","B2"])") == "/1: must match pattern \"^[a-z][0-9]+$\"");
  CHECK(first_error(s, R"(["a1","b2","c3","d4"])") == ": must NOT have more than 3 items");
}

TEST_CASE("validator: enum, const compare as JSON values") {
  CHECK(first_error(R"({"enum":["sgd","adam"]})", R"("adam")") == "");
  CHECK(first_error(R"({"enum":["sgd","adam"]})", R"("adamw")") == ": must be equal to one of the allowed values");
  CHECK(first_error(R"({"const":1})", "1.0") == "");
  CHECK(first_error(R"({"const":{"a":1,"b":2}})", R"({"b":2,"a":1})") == "");
  CHECK(first_error(R"({"const":"0.8.0"})", R"("0.7.0")") == ": must be equal to constant \"0.8.0\"");
}

TEST_CASE("validator: numeric bounds") {
  CHECK(first_error(R"({"exclusiveMinimum":0})", "0") == ": must be > 0");
  CHECK(first_error(R"({"exclusiveMinimum":0})", "1e-300") == "");
  CHECK(first_error(R"({"maximum":0.001})", "0.002") == ": must be <= 0.001");
  CHECK(first_error(R"({"exclusiveMaximum":1})", "1") == ": must be < 1");
}

TEST_CASE("validator: oneOf, anyOf, not, if/then") {
  const char* one = R"({"oneOf":[{"type":"number"},{"type":"integer"}]})";
  CHECK(first_error(one, "1.5") == "");
  CHECK(first_error(one, "2") == ": must match exactly one schema in oneOf");
  CHECK(first_error(R"({"anyOf":[{"type":"string"},{"minimum":3}]})", "2") == ": must match a schema in anyOf");
  CHECK(first_error(R"({"not":{"required":["forward"]}})", R"({"forward":1})") == ": must NOT be valid");
  const char* cond = R"({"if":{"properties":{"name":{"const":"adam"}}},"then":{"required":["beta1"]}})";
  CHECK(first_error(cond, R"({"name":"sgd"})") == "");
  CHECK(first_error(cond, R"({"name":"adam","beta1":0.9})") == "");
  CHECK(first_error(cond, R"({"name":"adam"})") == ": must have required property 'beta1'");
}

TEST_CASE("validator: max_errors collects several errors") {
  const auto s = ordered_json::parse(R"({"properties":{"a":{"type":"string"},"b":{"type":"string"}}})");
  const auto v = ordered_json::parse(R"({"a":1,"b":2})");
  CHECK(schema_registry::validate(s, v, 1).size() == 1);
  CHECK(schema_registry::validate(s, v, 10).size() == 2);
}

TEST_CASE("validator: uniqueItems over scalars reports Ajv's pair (nearest later duplicate of the last repeated item)") {
  const char* ids = R"({"type":"array","uniqueItems":true,"items":{"type":"string"}})";
  CHECK(first_error(ids, R"(["a","b","a","c","b","a"])") ==
        ": must NOT have duplicate items (items ## 5 and 2 are identical)");
  const char* nums = R"({"type":"array","uniqueItems":true,"items":{"type":["number","null"]}})";
  CHECK(first_error(nums, "[1, 2, 1.0]") == ": must NOT have duplicate items (items ## 2 and 0 are identical)");
  CHECK(first_error(nums, "[0, -0.0, 3]") == ": must NOT have duplicate items (items ## 1 and 0 are identical)");
  CHECK(first_error(nums, "[null, 1, null]") == ": must NOT have duplicate items (items ## 2 and 0 are identical)");
  CHECK(first_error(nums, "[1, 2, 3.5, null]") == "");
  // Items of other types are skipped by the scalar scan (and then fail their own type check).
  CHECK(first_error(nums, R"(["x", 1, "x"])") == "/0: must be number,null");
}

TEST_CASE("validator: uniqueItems on 200k distinct ids finishes (one hashed pass, not every pair)") {
  // Every pair would be 2e10 string compares; the ctest timeout would end it long before.
  std::string instance = "[";
  for (int i = 0; i < 200'000; ++i) instance += "\"p" + std::to_string(i) + "\",";
  instance += "\"p7\"]";
  const auto s = ordered_json::parse(R"({"type":"array","uniqueItems":true,"items":{"type":"string"}})");
  auto errors = schema_registry::validate(s, ordered_json::parse(instance));
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().message() == "must NOT have duplicate items (items ## 200000 and 7 are identical)");
  instance.erase(instance.rfind(','));
  CHECK(schema_registry::validate(s, ordered_json::parse(instance + "]")).empty());
}
