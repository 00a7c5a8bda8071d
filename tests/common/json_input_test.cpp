#include "common/json_input.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "support/temp_dir.hpp"

using common::BomPolicy;
using common::parse_json_text;
using common::parse_jsonl_text;

namespace {

std::string error_of(std::string_view text, common::JsonInputOptions opt = {}) {
  auto r = parse_json_text(text, opt);
  REQUIRE(!r.ok());
  return r.error().to_string();
}

}  // namespace

TEST_CASE("json_input: integers stay integers, fractions are doubles, key order is kept") {
  auto r = parse_json_text(R"({"b":1,"a":0.5,"c":[true,null,"s"]})");
  REQUIRE(r.ok());
  CHECK(r->is_object());
  CHECK(r->begin().key() == "b");
  CHECK((*r)["b"].is_number_integer());
  CHECK((*r)["a"].is_number_float());
  CHECK((*r)["c"][2] == "s");
}

TEST_CASE("json_input: duplicate keys - last value wins at the first key's position (JSON.parse)") {
  auto r = parse_json_text(R"({"a":1,"b":2,"a":3})");
  REQUIRE(r.ok());
  CHECK(r->size() == 2);
  CHECK(r->begin().key() == "a");
  CHECK((*r)["a"] == 3);
}

TEST_CASE("json_input: syntax errors name file, line and JSON pointer") {
  common::JsonInputOptions opt;
  opt.file = "in.json";
  const std::string e = error_of("{\n  \"a\": {\n    \"b\": [1, 2,, 3]\n  }\n}", opt);
  CHECK(e.starts_with("in.json:3: /a/b/2: invalid JSON:"));
  CHECK(error_of("{\"a\": tru}").starts_with("/a: invalid JSON"));
  CHECK(error_of("").find("invalid JSON") != std::string::npos);
  CHECK(error_of("{} x").find("invalid JSON") != std::string::npos);
  CHECK(error_of("[1,]").find("invalid JSON") != std::string::npos);
  CHECK(error_of("{\"a\":1 // c\n}").find("invalid JSON") != std::string::npos);
}

TEST_CASE("json_input: NaN, Infinity and overflowing numbers are rejected") {
  CHECK(error_of("[NaN]").find("invalid JSON") != std::string::npos);
  CHECK(error_of("[Infinity]").find("invalid JSON") != std::string::npos);
  const std::string e = error_of("{\"x\": [0, 1e400]}");
  CHECK(e.find("/x/1: ") != std::string::npos);
  CHECK(e.find("1e400") != std::string::npos);
  CHECK(error_of("[1, {\"a\": tru}]").starts_with("/1/a: invalid JSON"));
  CHECK(parse_json_text("[1e308, -0.0, 5e-324]").ok());
}

TEST_CASE("json_input: nesting depth limit") {
  std::string deep(common::kMaxJsonNestingDepth, '[');
  deep += std::string(common::kMaxJsonNestingDepth, ']');
  CHECK(parse_json_text(deep).ok());
  const std::string deeper = "[" + deep + "]";
  const std::string e = error_of(deeper);
  CHECK(e.find("nesting deeper than 128 levels") != std::string::npos);
  common::JsonInputOptions shallow;
  shallow.max_depth = 2;
  CHECK(error_of(R"({"a":{"b":{}}})", shallow).find("/a/b: nesting deeper than 2") != std::string::npos);
}

TEST_CASE("json_input: size limit") {
  common::JsonInputOptions small;
  small.max_bytes = 4;
  CHECK(error_of("[1,2]", small).find("5 bytes; the limit is 4") != std::string::npos);
  CHECK(parse_json_text("[12]", small).ok());
}

TEST_CASE("json_input: byte order mark is rejected or stripped as the caller says") {
  const std::string text = "\xEF\xBB\xBF{\"a\":1}";
  CHECK(error_of(text).find("byte order mark") != std::string::npos);
  common::JsonInputOptions strip;
  strip.bom = BomPolicy::strip;
  auto r = parse_json_text(text, strip);
  REQUIRE(r.ok());
  CHECK((*r)["a"] == 1);
  // One mark is stripped, not two: JSON text has no byte order mark (nlohmann's own lexer skipped
  // a second one; JSON.parse and Python's json refuse it).
  strip.file = "two.json";
  auto two = parse_json_text("\xEF\xBB\xBF" + text, strip);
  REQUIRE_FALSE(two.ok());
  CHECK(two.error().to_string() == "two.json:1: a second UTF-8 byte order mark at byte 3; JSON text cannot start with one");
}

TEST_CASE("json_input: JSONL records, CRLF, blank lines, line numbers") {
  auto r = parse_jsonl_text("{\"a\":1}\r\n\n   \n{\"a\":2}\n");
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  CHECK((*r)[0].line == 1);
  CHECK((*r)[1].line == 4);
  CHECK((*r)[1].value["a"] == 2);
  common::JsonInputOptions opt;
  opt.file = "r.jsonl";
  auto bad = parse_jsonl_text("{\"a\":1}\n{\"a\":}\n", opt);
  REQUIRE(!bad.ok());
  CHECK(bad.error().to_string().starts_with("r.jsonl:2: /a: invalid JSON"));
  auto empty = parse_jsonl_text(" \n\n", opt);
  REQUIRE(!empty.ok());
  CHECK(empty.error().message().find("empty JSONL") != std::string::npos);
}

TEST_CASE("json_input: reading files through FileSystem") {
  testsupport::TempDir dir;
  const std::string path = dir.file("doc.json");
  {
    std::ofstream(path) << "{\"k\": [1, 2]}";
  }
  auto r = common::read_json_file(common::real_file_system(), path);
  REQUIRE(r.ok());
  CHECK((*r)["k"][1] == 2);
  auto missing = common::read_json_file(common::real_file_system(), path + ".nope");
  REQUIRE(!missing.ok());
  CHECK(missing.error().code() == common::ErrorCode::io);
}

TEST_CASE("json_input: json_pointer_token escapes ~ and /") {
  CHECK(common::json_pointer_token("a/b~c") == "a~1b~0c");
}

TEST_CASE("json_input: a million keys in one object parse, in order, duplicates kept in place") {
  // Counted work is checked in json_object_index_test; here the whole reader runs on the
  // input an attacker would send (quadratic before: 80k keys took 9 s; 1M would take hours,
  // far past the test's ctest timeout).
  constexpr std::size_t n = 1'000'000;
  std::string text = "{";
  for (std::size_t i = 0; i < n; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k5\":\"last\",\"k999999\":{\"x\":[1]}}";
  auto r = parse_json_text(text);
  REQUIRE(r.ok());
  REQUIRE(r->size() == n);
  auto it = r->begin();
  CHECK(it.key() == "k0");
  std::advance(it, 5);
  CHECK(it.key() == "k5");
  CHECK(it.value() == "last");
  CHECK(r->items().begin().key() == "k0");
  const auto& entries = r->get_ref<const nlohmann::ordered_json::object_t&>();
  CHECK(entries.back().first == "k999999");
  CHECK(entries.back().second["x"][0] == 1);
}

TEST_CASE("json_input: a million array elements parse") {
  constexpr std::size_t n = 1'000'000;
  std::string text = "[";
  for (std::size_t i = 0; i < n; ++i) text += std::to_string(i % 10) + ",";
  text += "{\"a\":[]}]";
  auto r = parse_json_text(text);
  REQUIRE(r.ok());
  REQUIRE(r->size() == n + 1);
  CHECK((*r)[n - 1] == 9);
  CHECK((*r)[n]["a"].is_array());
  CHECK(error_of(text.substr(0, text.size() - 1)).find("invalid JSON") != std::string::npos);
}

TEST_CASE("json_input: duplicate keys in nested and large objects: last value, first position") {
  std::string text = "{\"o\":{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k3\":{\"inner\":1,\"inner\":[2]},\"k99\":null},\"o\":{\"z\":1,\"a\":2,\"z\":3}}";
  auto r = parse_json_text(text);
  REQUIRE(r.ok());
  // The second "o" replaces the first whole, at the first position.
  CHECK(r->dump() == R"({"o":{"z":3,"a":2}})");
  text.erase(text.find(",\"o\":{\"z\""), std::string::npos);
  text += "}";
  auto big = parse_json_text(text);
  REQUIRE(big.ok());
  const auto& o = (*big)["o"];
  REQUIRE(o.size() == 100);
  const auto& entries = static_cast<const nlohmann::ordered_json::object_t::Container&>(o.get_ref<const nlohmann::ordered_json::object_t&>());
  CHECK(entries[3].first == "k3");
  CHECK(entries[3].second.dump() == R"({"inner":[2]})");
  CHECK(entries.back().first == "k99");
  CHECK(entries.back().second.is_null());
}

TEST_CASE("json_input: errors quote at most an excerpt of the offending input") {
  const std::string big(50'000'000 / 100, 'a');  // 500 KB of one bad string / number
  // An unescaped control character inside a long string: the lexer's "last read" is cut.
  const std::string e1 = error_of("{\"k\": \"" + big + "\x01\"}");
  CHECK(e1.find("invalid JSON") != std::string::npos);
  CHECK(e1.size() < 600);
  CHECK(e1.find("...(") != std::string::npos);
  // An unterminated string: the token runs to the end of the input.
  CHECK(error_of("[\"" + big).size() < 600);
  // A number too large for binary64 with half a million digits.
  const std::string e2 = error_of("[1" + std::string(500'000, '0') + "]");
  CHECK(e2.size() < 600);
  CHECK(e2.find("/0: invalid JSON: number overflow parsing '100000") != std::string::npos);
  CHECK(e2.find("...(500001 bytes)'") != std::string::npos);
  // Short tokens are quoted whole, as before.
  CHECK(error_of("{\"x\": [0, 1e400]}").ends_with("/x/1: invalid JSON: number overflow parsing '1e400'"));
}

TEST_CASE("json_input: a NUL byte is an error naming its byte, after the document or inside it") {
  using namespace std::string_literals;
  const std::string after = "{\"a\":1}\0{\"not\":\"json"s;
  CHECK(error_of(after).find("NUL byte (0x00) at byte 7") != std::string::npos);
  CHECK(error_of("[1,\0 2]"s).find("at byte 3") != std::string::npos);
  CHECK(error_of("\0"s).find("NUL byte") != std::string::npos);
  common::JsonInputOptions opt;
  opt.file = "in.jsonl";
  auto lines = parse_jsonl_text("{\"a\":1}\n{\"b\":2}\0\n"s, opt);
  REQUIRE(!lines.ok());
  CHECK(lines.error().to_string() == "in.jsonl:2: NUL byte (0x00) at byte 7; JSON text cannot contain one");
}
