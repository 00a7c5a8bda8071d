#include "common/json_document_reader.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/suite_paths.hpp"

namespace json_document_reader_test {

using ojson = nlohmann::ordered_json;

// Equal including the kind of every number, the bits of every double and the order of keys.
bool same(const ojson& a, const ojson& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ojson::value_t::object: {
      if (a.size() != b.size()) return false;
      auto i = a.begin();
      auto j = b.begin();
      for (; i != a.end(); ++i, ++j) {
        if (i.key() != j.key() || !same(*i, *j)) return false;
      }
      return true;
    }
    case ojson::value_t::array:
      if (a.size() != b.size()) return false;
      for (std::size_t k = 0; k < a.size(); ++k) {
        if (!same(a[k], b[k])) return false;
      }
      return true;
    case ojson::value_t::number_float: {
      const double x = a.get<double>(), y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
      return a == b;
  }
}

// Every number's source text reads back as its value; counts the values (keys included).
void check_numbers(common::JsonView v, std::size_t& values) {
  ++values;
  if (v.is_number()) {
    const auto alone = common::parse_json_text(std::string(v.number_text()));
    REQUIRE(alone.ok());
    CHECK(same(*alone, common::to_ordered_json(v)));
  } else if (v.is_array()) {
    for (common::JsonView e : v.elements()) check_numbers(e, values);
  } else if (v.is_object()) {
    const auto range = v.members();
    for (auto it = range.begin(); it != range.end(); ++it) {
      ++values;
      check_numbers(*it, values);
    }
  }
}

// Both readers on `text` under `options`: the same verdict, the same error line, the same value.
void check_same_as_tree_reader(const std::string& text, const common::JsonInputOptions& options) {
  CAPTURE(text);
  const auto tree = common::parse_json_text(text, options);
  const auto doc = common::parse_json_document(text, options);
  REQUIRE(doc.ok() == tree.ok());
  if (!tree) {
    CHECK(doc.error().to_string() == tree.error().to_string());
    CHECK(doc.error().code() == tree.error().code());
    return;
  }
  CHECK(same(common::to_ordered_json(doc->root()), *tree));
  std::size_t values = 0;
  check_numbers(doc->root(), values);
  CHECK(doc->value_count() == values);
}

void check_both_bom_policies(const std::string& text) {
  common::JsonInputOptions options;
  options.file = "in.json";
  options.first_line = 7;
  check_same_as_tree_reader(text, options);
  options.bom = common::BomPolicy::strip;
  check_same_as_tree_reader(text, options);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every JSON file and JSONL record among the fixtures.
std::vector<std::string> fixture_texts() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(suite_test::source_dir() + "/fixtures")) {
    const auto ext = entry.path().extension();
    if (ext == ".json") out.push_back(read_file(entry.path()));
    if (ext == ".jsonl") {
      std::istringstream lines(read_file(entry.path()));
      for (std::string line; std::getline(lines, line);) {
        if (!line.empty()) out.push_back(line);
      }
    }
  }
  return out;
}


TEST_CASE("json_document_reader: refusals are the tree reader's, line for line") {
  for (const char* text :
       {"", " ", "01", "1.", ".5", "-", "+1", "1e", "1e+", "1e400", "-1e400", "NaN", "tru", "nul", "[1,]",
        "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "\"\\x\"", "\"\\u12\"", "\"\\uD800\"", "\"\\uDC00\"",
        "\"\\uD800\\u0041\"", "\"\x01\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xE2\x82\"",
        "\"abc", "[", "{", "1 2", "{\"a\":1}x", "\v1", "[1]\f", "{\"a\":\n\n[1,\n2,]}", "[1]\r\n[2]"}) {
    check_both_bom_policies(text);
  }
  check_both_bom_policies(std::string("{\"a\":1}\0{", 9));        // a NUL byte
  check_both_bom_policies("\xEF\xBB\xBF{\"a\":[1,2]}");            // a BOM: refused, or stripped
  check_both_bom_policies("\xEF\xBB\xBF\xEF\xBB\xBF{}");           // a second one is not JSON
  check_both_bom_policies(std::string(129, '[') + std::string(129, ']'));  // one level too deep
  check_both_bom_policies("[" + std::string(300, '9') + "e99999]");        // a huge number
  common::JsonInputOptions small;
  small.file = "in.json";
  small.max_bytes = 4;
  check_same_as_tree_reader("[1,2]", small);  // over the size limit
}

TEST_CASE("json_document_reader: values, escapes, numbers and duplicates read as the tree reader reads them") {
  for (const char* text :
       {"\"\\u0000\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\uD83D\\uDE00 \\u00e9 \xF0\x9F\x98\x80\"",
        "\"\xE0\xA0\x80\xEF\xBF\xBF\xF4\x8F\xBF\xBF\x7F\"", "{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":{\"x\":1},\"a\":[2]}",
        " \t\r\n[ true , false , null ] \n", "{}", "[]", "[[[]]]", "[0,-0,-0.0,1.5e300,18446744073709551615,"
        "18446744073709551616,-9223372036854775808,-9223372036854775809,1e-400,4.9e-324,2.2250738585072011e-308]",
        "{\"k\\u0065y\":\"v\\n\",\"key2\":{\"\":[{}]}}", "{\"a\":{\"a\":{\"a\":1}}}",
        // Read through the tree (a duplicate key; a second BOM, which nlohmann's own lexer skips):
        // -0 stays a signed integer (the fuzzer found it read back as an unsigned 0).
        "{\"a\":1,\"a\":-0}", "[-0,{\"k\":1,\"k\":[-0,0,-1]}]", "\xEF\xBB\xBF\xEF\xBB\xBF-0"}) {
    check_both_bom_policies(text);
  }
  std::string big = "{";
  for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  big += "\"k5\":\"again\",\"k77\":null}";
  check_both_bom_policies(big);
  // Around the tokenizer's switch from scanning to hashing an object's keys: a key repeated at
  // the start, the middle and the end of objects of 15 to 64 keys, keys told apart by their
  // lengths and ends, and keys that share them (one fingerprint: every check is a scan).
  for (const bool alike : {false, true}) {
    for (const int n : {15, 16, 17, 31, 32, 33, 64}) {
      for (const int again : {0, n / 2, n - 1}) {
        const auto key = [alike](int i) {
          std::string k(1, alike ? 'a' : 'k');
          if (alike) k += static_cast<char>('0' + i % 10);
          k += std::to_string(alike ? i / 10 : i);
          if (alike) k += 'z';
          return k;
        };
        std::string object = "{";
        const auto member = [&object](const std::string& k, const std::string& value) {
          object += '"';
          object += k;
          object += "\":";
          object += value;
        };
        for (int i = 0; i < n; ++i) {
          member(key(i), std::to_string(i));
          object += ',';
        }
        CAPTURE(object);
        const std::string before = object;
        member(key(again), "true}");
        check_both_bom_policies(object);
        object = before;
        member("other", "true}");
        check_both_bom_policies(object);
      }
    }
  }
  check_both_bom_policies(std::string(128, '[') + std::string(128, ']'));  // exactly the limit
  // Past the growing blocks (522,240 nodes) into the fixed ones: every node where it was put.
  std::string many = "[";
  for (int i = 0; i < 300000; ++i) many += (i % 3 == 0 ? "{\"k\":" : "[") + std::to_string(i) + (i % 3 == 0 ? "}," : "],");
  many.back() = ']';
  check_both_bom_policies(many);
}

TEST_CASE("json_document_reader: a non-negative integer below 2^28 takes one slot, its text and kind kept") {
  auto doc = common::parse_json_document("[0,9,10,268435455,268435456,-1,1.0,1e2,{\"k\":7},3]");
  REQUIRE(doc.ok());
  // The array, its 10 elements, the object's key and value; the four small integers, 7 and 3 one
  // slot each, the other four numbers two.
  CHECK(doc->value_count() == 13);
  CHECK(doc->node_count() == 17);
  const char* texts[] = {"0", "9", "10", "268435455", "268435456", "-1", "1.0", "1e2"};
  const common::JsonType kinds[] = {common::JsonType::number_unsigned, common::JsonType::number_unsigned,
                                    common::JsonType::number_unsigned, common::JsonType::number_unsigned,
                                    common::JsonType::number_unsigned, common::JsonType::number_integer,
                                    common::JsonType::number_float,    common::JsonType::number_float};
  std::vector<common::JsonView> items;
  for (common::JsonView e : doc->root().elements()) items.push_back(e);
  REQUIRE(items.size() == 10);
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(items[i].number_text() == texts[i]);
    CHECK(items[i].type() == kinds[i]);
  }
  CHECK(items[3].unsigned_integer() == 268435455u);
  CHECK(items[3].number() == 268435455.0);
  CHECK(items[4].unsigned_integer() == 268435456u);
  CHECK(items[8].find("k")->unsigned_integer() == 7u);
  CHECK(items[9].unsigned_integer() == 3u);
  CHECK(items[9].is_number());
}

TEST_CASE("json_document_reader: every fixture, and seeded mutations of them, read as the tree reader reads them") {
  const auto seeds = fixture_texts();
  REQUIRE(seeds.size() > 10);
  std::mt19937_64 rng(30);
  const std::string alphabet = "{}[]\",:0123456789.eE+-\\u tfnrl\x80\xC3\xA9\xED\xF4\x01\n\r";
  std::size_t accepted = 0, total = 0;
  for (const auto& seed : seeds) {
    check_both_bom_policies(seed);
    if (seed.size() > 20000) continue;  // the mutations: on records, not on the long files
    for (int k = 0; k < 60; ++k) {
      std::string text = seed;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = rng() % text.size();
        switch (rng() % 5) {
          case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
          case 1: text.erase(at, 1 + rng() % 4); break;
          case 2: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
          case 3: text.insert(at, text.substr(at, rng() % 40)); break;  // a duplicated span: duplicate keys
          default: text.resize(at); break;
        }
      }
      ++total;
      if (common::parse_json_text(text)) ++accepted;
      check_both_bom_policies(text);
    }
  }
  MESSAGE("mutations: " << total << ", accepted: " << accepted);
  CHECK(accepted > 0);
}

TEST_CASE("json_document_reader: the document owns its text, and refuses a size limit it cannot hold") {
  std::string text = "{\"name\":\"x\",\"n\":1.50}";
  auto doc = common::parse_json_document(std::move(text));
  REQUIRE(doc.ok());
  const auto name = doc->root().find("name");
  REQUIRE(name.has_value());
  CHECK(name->string() == "x");
  CHECK(doc->root().find("n")->number_text() == "1.50");
  CHECK(doc->root().find("n")->number() == 1.5);
  CHECK_FALSE(doc->root().find("absent").has_value());
  common::JsonInputOptions huge;
  huge.max_bytes = common::JsonDocument::kMaxTextBytes + 1;
  const auto refused = common::parse_json_document("{}", huge);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == common::ErrorCode::invalid_argument);
}

TEST_CASE("json_document_reader: a member's span holds its value and only what surrounds it") {
  const auto span_of = [](common::JsonView object, std::string_view key) {
    const auto members = object.members();
    for (auto it = members.begin(); it != members.end(); ++it) {
      if (it.key().string() == key) return object.member_span(it);
    }
    FAIL("no member " << key);
    return std::optional<std::string_view>();
  };
  auto a = common::parse_json_document(std::string(R"({"a": [1, 2], "b":{"c":true,"d":null}, "e":"x"} )"));
  REQUIRE(a.ok());
  const common::JsonView root = a->root();
  CHECK(span_of(root, "a") == std::optional<std::string_view>(R"(": [1, 2], ")"));
  CHECK(span_of(root, "b") == std::optional<std::string_view>(R"(":{"c":true,"d":null}, ")"));
  CHECK(span_of(root, "e") == std::optional<std::string_view>(R"(":"x"} )"));  // the root's last: to the end
  const common::JsonView b = *root.find("b");
  CHECK(span_of(b, "c") == std::optional<std::string_view>(R"(":true,")"));
  CHECK_FALSE(span_of(b, "d").has_value());  // a nested object's last member: its end is not kept
  // A key with an escape is not in the text as read: no span, for it or for the member before it.
  auto escaped = common::parse_json_document(std::string(R"({"p":1,"q\u0041":2,"r":3})"));
  REQUIRE(escaped.ok());
  CHECK_FALSE(span_of(escaped->root(), "qA").has_value());
  CHECK_FALSE(span_of(escaped->root(), "p").has_value());
  CHECK(span_of(escaped->root(), "r") == std::optional<std::string_view>(R"(":3})"));
  // A duplicated key keeps its last value, and the span is that value's: the text is rewritten.
  auto twice = common::parse_json_document(std::string(R"({"k":1,"m":0,"k":2})"));
  REQUIRE(twice.ok());
  CHECK(twice->root().find("k")->number() == 2);
  const auto k = span_of(twice->root(), "k");
  REQUIRE(k.has_value());
  CHECK(k->find('2') != std::string_view::npos);
  CHECK(k->find('1') == std::string_view::npos);
}

}  // namespace json_document_reader_test
