// reconcile::ReadReceipt, the receipt the rules read: read from a document it holds what the
// tree of the same text holds, value for value and key for key; a container's children are built
// only when read; and the reconciler's verdict on every fixture record is the tree's.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "reconcile/read_json.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"
#include "support/suite_paths.hpp"

namespace read_json_test {  // named: other files of its unity batch say Json for the tree
namespace {

using reconcile::Json;
using reconcile::ReadReceipt;
using reconcile::Tree;


common::JsonDocument document(const std::string& text) {
  auto doc = common::parse_json_document(text);
  REQUIRE_MESSAGE(doc.ok(), text);
  return std::move(*doc);
}

// Both forms agree on type, value, size, keys and order, all the way down (and find() agrees).
void check_same(const Json& a, const Json& b) {
  REQUIRE(a.type() == b.type());
  switch (a.type()) {
    case Json::Type::boolean: CHECK(a.boolean() == b.boolean()); break;
    case Json::Type::number_integer: CHECK(a.integer() == b.integer()); break;
    case Json::Type::number_unsigned: CHECK(a.unsigned_integer() == b.unsigned_integer()); break;
    case Json::Type::number_float: CHECK(std::bit_cast<std::uint64_t>(a.number()) == std::bit_cast<std::uint64_t>(b.number())); break;
    case Json::Type::string: CHECK(a.string() == b.string()); break;
    case Json::Type::array: {
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) check_same(a[i], b[i]);
      break;
    }
    case Json::Type::object: {
      REQUIRE(a.size() == b.size());
      auto ia = a.members().begin();
      for (const auto& [key, value] : b.members()) {
        CHECK(ia->first == key);
        check_same(ia->second, value);
        REQUIRE(a.find(key) == &ia->second);
        ++ia;
      }
      break;
    }
    case Json::Type::null: break;
  }
}

}  // namespace

TEST_CASE("read receipt: a document reads as its tree does, value for value") {
  const std::vector<std::string> texts = {
      R"({"a":1,"b":[true,false,null,-0,0,-1,18446744073709551615,-9223372036854775808,1e400e0,2.5e-300],"c":{}})",
      R"({"s":"plain","e":"tab\tquote\" slash\\ \u00e9 \ud83d\ude00","k\u0000":"nul key","":"empty key"})",
      R"([[[[]]],{},[],{"x":{"y":{"z":[1,{"w":"deep"}]}}},268435455,268435456,1.0,-0.0])",
      R"("just a string")", "17", "null", "[]",
  };
  for (const std::string& text : texts) {
    CAPTURE(text);
    auto tree = common::parse_json_text(text);
    if (!tree.ok()) continue;  // 1e400e0 is not JSON: that line checks the reader, not this
    const ReadReceipt from_tree(*tree);
    const ReadReceipt from_document(document(text));
    check_same(from_document.root(), from_tree.root());
    CHECK(reconcile::to_tree(from_document.root()) == *tree);
    CHECK(from_document.root().dump() == tree->dump());
  }
}

TEST_CASE("read receipt: a document's containers are built only when read") {
  std::string big = "[";
  for (int i = 0; i < 10000; ++i) big += (i ? ",{}" : "{}");
  big += "]";
  const ReadReceipt read(document(R"({"small":[1,2,3],"big":)" + big + R"(,"n":{"m":[4]}})"));
  CHECK(read.built_bytes() == 0);
  CHECK(read.root().size() == 3);  // answered from the document: nothing built
  CHECK(read.built_bytes() == 0);
  const Json* small = read.root().find("small");  // builds the root's three members
  REQUIRE(small != nullptr);
  const std::size_t root_only = read.built_bytes();
  CHECK(root_only == 3 * sizeof(reconcile::JsonMember));
  CHECK((*small)[2].unsigned_integer() == 3);
  CHECK(read.built_bytes() == root_only + 3 * sizeof(Json));
  const Json* n = read.root().find("n");
  REQUIRE(n != nullptr);
  CHECK(n->find("m")->front().unsigned_integer() == 4);
  CHECK(read.built_bytes() < 1024);  // "big" never read: its 10,000 elements cost nothing
  CHECK(read.root().find("big")->size() == 10000);
  CHECK(read.built_bytes() < 1024);
  std::size_t visited = 0;
  for (const Json& e : *read.root().find("big")) visited += e.is_object() && e.empty();
  CHECK(visited == 10000);
  CHECK(read.built_bytes() >= 10000 * sizeof(Json));
}

TEST_CASE("read receipt: a member's tree is converted again only when it differs from the last one") {
  const std::string topology = R"({"unit_order":{"input":["x"],"output":["y"]},"w":[1,2.5,-0]})";
  const ReadReceipt a(document(R"({"topology":)" + topology + R"(,"n":1})"));
  const ReadReceipt b(document(R"({"n":1,"topology":)" + topology + "}"));
  const Tree* ta = a.tree_member("topology");
  REQUIRE(ta != nullptr);
  CHECK(*ta == Tree::parse(topology));
  CHECK(b.tree_member("topology") == ta);  // the same tree, not a second conversion
  CHECK(a.tree_member("absent") == nullptr);
  // Any difference, the kind of a number included, gives a tree of its own, equal to the member.
  for (const std::string other : {R"({"unit_order":{"input":["x"],"output":["y"]},"w":[1,2.5,0]})",
                                  R"({"unit_order":{"input":["x"],"output":["y"]},"w":[1.0,2.5,-0]})",
                                  R"({"unit_order":{"output":["y"],"input":["x"]},"w":[1,2.5,-0]})"}) {
    CAPTURE(other);
    const ReadReceipt c(document(R"({"topology":)" + other + "}"));
    const Tree* tc = c.tree_member("topology");
    REQUIRE(tc != nullptr);
    CHECK(tc != ta);
    CHECK(tc->dump() == Tree::parse(other).dump());
    CHECK(*ta == Tree::parse(topology));  // the first receipt's tree is kept while it lives
  }
  // Read twice with the same bytes around it (the tree is then reused without comparing it), then
  // with one byte changed where the length stays: a tree of its own.
  const std::string same_length = R"({"unit_order":{"input":["x"],"output":["y"]},"w":[1,2.5,-1]})";
  const ReadReceipt d(document(R"({"topology":)" + topology + R"(,"n":1})"));
  const ReadReceipt e(document(R"({"topology":)" + topology + R"(,"n":1})"));
  const Tree* td = d.tree_member("topology");
  CHECK(e.tree_member("topology") == td);
  const ReadReceipt f(document(R"({"topology":)" + same_length + R"(,"n":1})"));
  const Tree* tf = f.tree_member("topology");
  REQUIRE(tf != nullptr);
  CHECK(tf != td);
  CHECK(tf->dump() == Tree::parse(same_length).dump());
}

TEST_CASE("read receipt: the reconciler's verdict on a document is the tree's, on every fixture record") {
  std::size_t records = 0;
  for (const char* name : {"iris.golden.jsonl", "xor.golden.jsonl", "xor.multi-step.jsonl", "softmax-ce.golden.jsonl",
                           "xor-per-neuron-bias.golden.jsonl", "mazur.golden.jsonl"}) {
    std::ifstream in(suite_test::source_dir() + "/fixtures/" + name);
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      CAPTURE(name);
      const Tree tree = Tree::parse(line);
      // A tampered copy too, so that failures (their paths, values, messages) are compared.
      Tree tampered = tree;
      if (tampered.contains("loss") && tampered["loss"].contains("total")) tampered["loss"]["total"] = 0.5;
      for (const Tree& t : {tree, tampered}) {
        const reconcile::Options options{.derive_every_record = true, .term_scaled_sums = true, .engine_labels = true};
        const auto from_tree = reconcile::reconcile_receipt(t, options);
        const auto from_document = reconcile::reconcile_receipt(ReadReceipt(document(t.dump())), options);
        CHECK(reconcile::to_json(from_document).dump() == reconcile::to_json(from_tree).dump());
        ++records;
      }
    }
  }
  CHECK(records >= 12);
}

TEST_CASE("read receipt: a root of 11 to 40 members finds each key, and no other, as a scan does") {
  // 12-32 root members are looked up through a key table; keys alike but for their middle or
  // their length (one slot of the table) and keys absent from the root must answer as a scan.
  for (const std::size_t n : {11, 12, 13, 21, 31, 32, 33, 40}) {
    CAPTURE(n);
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < n; ++i) {
      std::string key = i % 3 == 0 ? "k" : (i % 3 == 1 ? "parameters_" : "p");
      key += std::to_string(i);
      if (i % 4 == 0) key += "_same_end";
      keys.push_back(key);
    }
    std::string text = "{";
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) text += ',';
      text += '"';
      text += keys[i];
      text += "\":";
      text += std::to_string(i);
    }
    text += '}';
    const ReadReceipt read(document(text));
    const Json& root = read.root();
    REQUIRE(root.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(keys[i]);
      const Json* v = root.find(keys[i]);
      REQUIRE(v != nullptr);
      CHECK(v->unsigned_integer() == i);
      CHECK(v == &root.members().begin()[static_cast<std::ptrdiff_t>(i)].second);
    }
    for (const char* absent : {"", "k", "p", "k0", "parameters_", "x_same_end", "k1000", "optimizer_config"}) {
      const bool present = std::find(keys.begin(), keys.end(), std::string(absent)) != keys.end();
      CHECK((root.find(absent) != nullptr) == present);
    }
  }
}

}  // namespace read_json_test
