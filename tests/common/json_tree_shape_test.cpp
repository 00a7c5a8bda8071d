// TreeShape: what of an ordered_json tree a validator's walk can see besides its scalar values,
// and its places in one order.
#include "common/json_tree_shape.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "shape_edits.hpp"

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
  CHECK(same_tree_shape(shape_edits::kBase, shape_edits::kBase));
  CHECK(same_tree_shape(shape_edits::kBase, shape_edits::kSameShape));
  for (const char* other : shape_edits::kOtherShapes) {
    CAPTURE(other);
    CHECK_FALSE(same_tree_shape(shape_edits::kBase, other));
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
