// TreeShape: what of an ordered_json tree a validator's walk can see besides its scalar values,
// and its places in one order.
#include "common/json_tree_shape.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using ojson = nlohmann::ordered_json;

bool same_tree_shape(const char* a, const char* b) {
  common::TreeShape shape;
  std::vector<common::TreeShape::Place> places;
  const ojson first = ojson::parse(a);
  REQUIRE(shape.take(first, places));
  return shape.matches(ojson::parse(b), places);
}

}  // namespace

TEST_CASE("tree shape: the same containers, keys and scalar types, whatever the strings and numbers") {
  const char* base = R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})";
  CHECK(same_tree_shape(base, base));
  CHECK(same_tree_shape(base, R"({"name":"b and more","w":[1e3,-2.75,7],"on":true,"n":null,"o":{"k":"","e":[]}})"));
  for (const char* other : {
           R"({"name":"a","w":[0.5,-1.25,3.5],"on":true,"n":null,"o":{"k":"v","e":[]}})",    // unsigned -> float
           R"({"name":"a","w":[0.5,-1.25,-3],"on":true,"n":null,"o":{"k":"v","e":[]}})",     // unsigned -> integer
           R"({"nbme":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})",      // a key's byte
           R"({"names":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[]}})",     // a key's length
           R"({"name":"a","w":[0.5,-1.25,3,4],"on":true,"n":null,"o":{"k":"v","e":[]}})",    // a size
           R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"v","e":[1]}})",     // a nested size
           R"({"name":"a","w":[0.5,-1.25,3],"on":false,"n":null,"o":{"k":"v","e":[]}})",     // a boolean
           R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":0,"o":{"k":"v","e":[]}})",         // a type
           R"({"w":[0.5,-1.25,3],"name":"a","on":true,"n":null,"o":{"k":"v","e":[]}})",      // the order
           R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":[{"k":"v","e":[]}]})",    // the nesting
           R"({"name":"a","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"e":[],"k":"v"}})",      // nested order
           R"([])"}) {
    CAPTURE(other);
    CHECK_FALSE(same_tree_shape(base, other));
  }
}

TEST_CASE("tree shape: places in order, each key before its value; too big a tree is not kept") {
  const ojson first = ojson::parse(R"({"a":[1,"x"],"b":{"c":null}})");
  const ojson second = ojson::parse(R"({"a":[2,"y"],"b":{"c":null}})");
  common::TreeShape shape;
  std::vector<common::TreeShape::Place> places;
  CHECK_FALSE(shape.matches(second, places));  // nothing kept yet
  REQUIRE(shape.take(first, places));
  REQUIRE(shape.matches(second, places));
  REQUIRE(places.size() == 9);
  CHECK(places[0].value == &second);
  CHECK(*places[1].key == "a");
  CHECK(places[2].value == &second["a"]);
  CHECK(places[3].value == &second["a"][0]);
  CHECK(places[4].value == &second["a"][1]);
  CHECK(*places[5].key == "b");
  CHECK(places[6].value == &second["b"]);
  CHECK(*places[7].key == "c");
  CHECK(places[7].value == nullptr);
  CHECK(places[8].value == &second["b"]["c"]);
  ojson big = ojson::array();
  for (std::size_t i = 0; i < common::TreeShape::kMaxPlaces; ++i) big.push_back(0);
  CHECK_FALSE(shape.take(big, places));  // one place more than kept
  CHECK(shape.empty());
  CHECK_FALSE(shape.matches(second, places));
}
