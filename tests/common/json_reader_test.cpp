#include "common/json_reader.hpp"

#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "support/json_reads.hpp"

using common::JsonFields;
using common::JsonReader;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

ordered_json parse(std::string_view text) {
  auto r = common::parse_json_text(text);
  REQUIRE(r.ok());
  return *r;
}

template <class T>
std::string error_of(const common::Result<T>& r) {
  REQUIRE(!r.ok());
  return r.error().to_string();
}

std::string error_of(const common::Status& s) {
  REQUIRE(!s.ok());
  return s.error().to_string();
}

}  // namespace

TEST_CASE("json_reader: child paths escape '~' and '/' (RFC 6901)") {
  CHECK(common::json_child_path("", "a") == "/a");
  CHECK(common::json_child_path("/x", "a/b~c") == "/x/a~1b~0c");
  CHECK(common::json_child_path("/x", std::size_t{3}) == "/x/3");
}

TEST_CASE("json_reader: typed reads accept their type and name the path when refused (terse)") {
  const JsonReader r{"in.json"};
  const json doc = json::parse(R"({"n":1.5,"i":7,"f":3.0,"s":"abc","b":true,"id":"a_1","ids":["x","y"],"neg":-2})");
  CHECK(*r.finite_number(doc["n"], "/n") == 1.5);
  CHECK(*r.integer(doc["i"], "/i", 0, 10) == 7);
  CHECK(*r.integer(doc["f"], "/f", 0, 10) == 3);  // 3.0 is the integer 3
  CHECK(*r.string(doc["s"], "/s", 3) == "abc");
  CHECK(*r.boolean(doc["b"], "/b"));
  CHECK(*r.identifier(doc["id"], "/id", 8) == "a_1");
  CHECK(r.identifier_array(doc["ids"], "/ids", 1, 2, 8)->size() == 2);
  CHECK(*r.one_of(doc["s"], "/s", {"x", "abc"}) == 1);
  CHECK(*r.unsigned_integer(doc["i"], "/i") == 7);
  CHECK(*r.signed_integer(doc["neg"], "/neg") == -2);

  CHECK(error_of(r.finite_number(doc["s"], "/s")) == "in.json: /s: expected a number, got string");
  CHECK(error_of(r.integer(doc["n"], "/n", 0, 10)) == "in.json: /n: expected an integer, got a fraction");
  CHECK(error_of(r.integer(doc["i"], "/i", 0, 5)) == "in.json: /i: integer 7 is above the maximum 5");
  CHECK(error_of(r.integer(doc["neg"], "/neg", 0, 5)) == "in.json: /neg: integer -2 is outside [0, 5]");
  CHECK(error_of(r.string(doc["s"], "/s", 2)) == "in.json: /s: string is 3 bytes, above the limit of 2");
  CHECK(error_of(r.boolean(doc["i"], "/i")) == "in.json: /i: expected a boolean, got number");
  CHECK(error_of(r.identifier(doc["s"], "/s", 2)) == "in.json: /s: string is 3 bytes, above the limit of 2");
  CHECK(error_of(r.identifier(json("1a"), "/id", 8)) ==
        "in.json: /id: '1a' is not an identifier (expected ^[a-zA-Z][a-zA-Z0-9_]*$)");
  CHECK(error_of(r.identifier_array(doc["ids"], "/ids", 3, 4, 8)) == "in.json: /ids: array has 2 items; expected 3..4");
  CHECK(error_of(r.identifier_array(doc["s"], "/s", 0, 4, 8)) == "in.json: /s: expected an array, got string");
  CHECK(error_of(r.one_of(doc["s"], "/s", {"x", "y"})) == "in.json: /s: expected one of x, y; got 'abc'");
  CHECK(error_of(r.one_of(doc["i"], "/i", {"x", "y"})) == "in.json: /i: expected one of x, y; got number");
  CHECK(error_of(r.unsigned_integer(doc["neg"], "/neg")) == "in.json: /neg: expected a non-negative integer, got number");
  CHECK(error_of(r.signed_integer(doc["f"], "/f")) == "in.json: /f: expected an integer, got number");
  CHECK(error_of(r.signed_integer(json(std::uint64_t{1} << 63), "/big")) ==
        "in.json: /big: expected an integer, got number");
  CHECK(error_of(r.object(doc["ids"], "")) == "in.json: /: expected an object, got array");
}

TEST_CASE("json_reader: check_object refuses unknown keys and names missing ones") {
  const JsonReader r{"t.json", 4};
  const json doc = json::parse(R"({"a":1,"b/c":2})");
  CHECK(r.check_object(doc, "/o", {"a", "b/c", "d"}, {"a"}).ok());
  CHECK(error_of(r.check_object(doc, "/o", {"a"}, {})) == "t.json:4: /o/b~1c: unknown key 'b/c'");
  CHECK(error_of(r.check_object(doc, "/o", {"a", "b/c", "d"}, {"d"})) == "t.json:4: /o: missing required key 'd'");
  CHECK(error_of(r.check_object(json::array(), "/o", {"a"}, {})) == "t.json:4: /o: expected an object, got array");

  const JsonReader q{"t.json", 0, JsonReader::Dialect::quoting};
  CHECK(error_of(q.check_object(doc, "", {"a", "x"}, {})) == "t.json: /b~1c: unknown key; expected one of a, x");
}

TEST_CASE("json_reader: the quoting dialect quotes the value, cut to a couple of hundred bytes") {
  const JsonReader q{"q.json", 0, JsonReader::Dialect::quoting};
  CHECK(error_of(q.finite_number(ordered_json("x"), "/v")) == "q.json: /v: expected a number, got \"x\"");
  CHECK(error_of(q.boolean(ordered_json(1), "/v")) == "q.json: /v: expected true or false, got 1");
  CHECK(error_of(q.unit_interval(ordered_json(1.5), "/v")) == "q.json: /v: expected a number in [0, 1], got 1.5");
  CHECK(error_of(q.array(ordered_json(2), "/v")) == "q.json: /v: expected an array, got number");
  const std::string huge(1'000'000, 'z');
  const std::string line = error_of(q.integer(ordered_json(huge), "/v", 0, 1));
  CHECK(line.size() < 400);
  CHECK(line.find("...(1000002 bytes)") != std::string::npos);
  const std::string one_of = error_of(q.one_of(ordered_json(huge), "/v", {"a"}));
  CHECK(one_of.size() < 400);
}

TEST_CASE("json_reader: JsonFields reads by key with the object's path, file and line") {
  const ordered_json obj =
      parse(R"({"on":true,"n":3,"neg":-4,"x":0.25,"s":"hi","arr":[1],"obj":{},"big":2.5,"str1":"1"})");
  const JsonFields f(obj, "s.jsonl", 7, "/ticks/2");
  CHECK(f.only({"on", "n", "neg", "x", "s", "arr", "obj", "big", "str1"}).ok());
  CHECK(f.has("on"));
  CHECK(!f.has("off"));
  CHECK(*f.boolean("on"));
  CHECK(*f.unsigned_int("n") == 3);
  CHECK(*f.signed_int("neg") == -4);
  CHECK(*f.number("x") == 0.25);
  CHECK(*f.unit_float("x") == 0.25F);
  CHECK(*f.string("s") == "hi");
  CHECK((*f.array("arr"))->size() == 1);
  CHECK((*f.object("obj"))->empty());
  CHECK(f.pointer("a/b") == "/ticks/2/a~1b");

  CHECK(error_of(f.only({"on"})) ==
        "s.jsonl:7: /ticks/2/n: unknown key; expected one of on");
  CHECK(error_of(f.boolean("off")) == "s.jsonl:7: /ticks/2: missing required key 'off'");
  CHECK(error_of(f.boolean("n")) == "s.jsonl:7: /ticks/2/n: expected true or false, got 3");
  CHECK(error_of(f.unsigned_int("neg")) == "s.jsonl:7: /ticks/2/neg: expected a non-negative integer, got -4");
  CHECK(error_of(f.unsigned_int("x")) == "s.jsonl:7: /ticks/2/x: expected a non-negative integer, got 0.25");
  CHECK(error_of(f.signed_int("x")) == "s.jsonl:7: /ticks/2/x: expected an integer, got 0.25");
  CHECK(error_of(f.number("s")) == "s.jsonl:7: /ticks/2/s: expected a number, got \"hi\"");
  CHECK(error_of(f.unit_float("big")) == "s.jsonl:7: /ticks/2/big: expected a number in [0, 1], got 2.5");
  CHECK(error_of(f.string("n")) == "s.jsonl:7: /ticks/2/n: expected a string, got 3");
  CHECK(error_of(f.array("obj")) == "s.jsonl:7: /ticks/2/obj: expected an array, got object");
  CHECK(error_of(f.object("arr")) == "s.jsonl:7: /ticks/2/arr: expected an object, got array");
  CHECK(error_of(f.error("", "whole")) == "s.jsonl:7: /ticks/2: whole");

  const ordered_json not_object = parse("[1]");
  const JsonFields top(not_object, "t.json", 0, "");
  CHECK(error_of(top.only({"a"})) == "t.json: /: expected an object, got array");
  CHECK(!top.has("a"));
}


TEST_CASE("json_reader: a JsonView reads as its tree reads, value for value and message for message") {
  using suite_test::every_read;
  const std::string long_string = "\"" + std::string(300, 'w') + "\\u00e9\\n\\u0001\"";
  // Past the bounded dump's 4096-byte pieces, a two-byte character astride each cut.
  std::string accents = "\"";
  for (int i = 0; i < 5000; ++i) accents += i % 700 == 0 ? "\\n" : "\xC3\xA9";
  accents += "\"";
  std::string long_array = "[";
  for (int i = 0; i < 120; ++i) long_array += (i ? ",\"" : "\"") + std::to_string(i) + "\\t\"";
  long_array += "]";
  for (const std::string& text :
       {std::string("0"), std::string("7"), std::string("-3"), std::string("1e2"), std::string("3.0"), std::string("0.5"),
        std::string("1.7976931348623157e308"), std::string("18446744073709551615"), std::string("-9223372036854775808"),
        std::string("9223372036854775808"), std::string("268435456"), std::string("true"), std::string("null"),
        std::string("\"ab\""), std::string("\"learned\""), std::string("\"a b\\\"\\\\\""), std::string("\"abcdefghij\""),
        std::string("[]"), std::string("[\"x\",\"y1\"]"), std::string("[\"x\",2]"), std::string("[\"1x\"]"),
        std::string("{}"), std::string("{\"a\":1}"), std::string("{\"a\":1,\"c\":2}"), std::string("{\"b\":[{}]}"),
        std::string("{\"\\u00e9\":{\"k\":[1,2.5,null,true,\"s\"]}}"), long_string, long_array, accents}) {
    CAPTURE(text);
    const ordered_json tree = parse(text);
    auto doc = common::parse_json_document(text);
    REQUIRE(doc.ok());
    for (const auto dialect : {JsonReader::Dialect::terse, JsonReader::Dialect::quoting}) {
      const JsonReader r{"v.json", 3, dialect};
      CHECK(every_read(r, doc->root()) == every_read(r, tree));
    }
    CHECK(common::dump_excerpt(doc->root(), common::kMaxQuotedInputBytes) == common::excerpt(tree.dump()));
    CHECK(common::dump_excerpt(doc->root(), 5) == common::excerpt(tree.dump(), 5));
    CHECK(common::dump_json(doc->root()) == tree.dump());
  }
}

TEST_CASE("json_reader: JsonViewFields reads a document's object as JsonFields reads its tree") {
  const std::string text =
      R"({"on":true,"n":3,"neg":-4,"x":0.25,"s":"hi","arr":[1],"obj":{},"big":2.5,"str1":"1","nul":null})";
  const ordered_json tree = parse(text);
  auto doc = common::parse_json_document(text);
  REQUIRE(doc.ok());
  const JsonFields t(tree, "s.jsonl", 7, "/ticks/2");
  const common::JsonViewFields v(doc->root(), "s.jsonl", 7, "/ticks/2");
  const auto outcome = [](const auto& r) { return suite_test::read_outcome(r); };
  for (const char* key : {"on", "n", "neg", "x", "s", "arr", "obj", "big", "str1", "nul", "absent"}) {
    CAPTURE(key);
    CHECK(v.has(key) == t.has(key));
    CHECK(outcome(v.boolean(key)) == outcome(t.boolean(key)));
    CHECK(outcome(v.unsigned_int(key)) == outcome(t.unsigned_int(key)));
    CHECK(outcome(v.signed_int(key)) == outcome(t.signed_int(key)));
    CHECK(outcome(v.number(key)) == outcome(t.number(key)));
    CHECK(outcome(v.unit_float(key)) == outcome(t.unit_float(key)));
    CHECK(outcome(v.string(key)) == outcome(t.string(key)));
    const auto va = v.array(key);
    const auto ta = t.array(key);
    REQUIRE(va.ok() == ta.ok());
    if (va.ok()) CHECK(va->size() == (*ta)->size());
    else CHECK(va.error().to_string() == ta.error().to_string());
    const auto vo = v.object(key);
    const auto to = t.object(key);
    REQUIRE(vo.ok() == to.ok());
    if (!vo.ok()) CHECK(vo.error().to_string() == to.error().to_string());
  }
  CHECK(outcome(v.only({"on"})) == outcome(t.only({"on"})));
  auto arr = common::parse_json_document("[1]");
  REQUIRE(arr.ok());
  const common::JsonViewFields top(arr->root(), "t.json", 0, "");
  CHECK(outcome(top.only({"a"})) == "error: t.json: /: expected an object, got array");
  CHECK(!top.has("a"));
}
