// DocumentShape: what of a document a validator's walk can see besides its scalar values.
#include "common/json_document_shape.hpp"

#include <doctest/doctest.h>

#include <string>

#include "common/json_document_reader.hpp"
#include "shape_edits.hpp"

namespace {

common::JsonDocument shape_doc(std::string text) {
  auto doc = common::parse_json_document(std::move(text));
  REQUIRE(doc.ok());
  return std::move(*doc);
}

bool same_shape(const std::string& a, const std::string& b) {
  common::DocumentShape shape;
  REQUIRE(shape.take(shape_doc(a)));
  return shape.matches(shape_doc(b));
}

// An array of n numbers, each written as `number` but the last as `last`.
std::string array_of_numbers(std::size_t n, const std::string& number, const std::string& last) {
  std::string text = "{\"w\":[";
  for (std::size_t i = 0; i + 1 < n; ++i) text.append(number).append(",");
  return text.append(last).append("]}");
}

}  // namespace

TEST_CASE("document shape: the same containers, keys and scalar types, whatever the scalars' values") {
  const std::string base = shape_edits::kBase;
  CHECK(same_shape(base, base));
  CHECK(same_shape(base, shape_edits::kSameShape));
  // Strings with escapes, other spacing, a key written with an escape that reads the same.
  CHECK(same_shape(base, R"({"name":"b\u00e9","w":[0.5,-1.25,3],"on":true,"n":null,"o":{"k":"\"","e":[]}})"));
  CHECK(same_shape(base, R"({ "n\u0061me" : "a", "w" : [0.5, -1.25, 3], "on":true, "n":null, "o":{"k":"v","e":[ ]} })"));
  for (const char* other : shape_edits::kOtherShapes) {
    CAPTURE(other);
    CHECK_FALSE(same_shape(base, other));
  }
}

TEST_CASE("document shape: documents past the first block of nodes, and past the limit") {
  // 3,000 floats take 6,001 slots: the document's nodes span three blocks.
  const std::string floats = array_of_numbers(3000, "0.5", "0.5");
  CHECK(same_shape(floats, array_of_numbers(3000, "1.5", "-2.5")));
  CHECK_FALSE(same_shape(floats, array_of_numbers(3000, "0.5", "2")));    // the last slot's tag, in the third block
  CHECK_FALSE(same_shape(floats, array_of_numbers(3001, "0.5", "0.5")));  // one more
  common::DocumentShape shape;
  CHECK_FALSE(shape.matches(shape_doc(floats)));  // nothing kept yet
  CHECK(shape.take(shape_doc(floats)));
  CHECK_FALSE(shape.empty());
  // More slots than kMaxNodes: not kept, and what was kept is gone.
  CHECK_FALSE(shape.take(shape_doc(array_of_numbers(common::DocumentShape::kMaxNodes, "7", "7"))));
  CHECK(shape.empty());
  CHECK_FALSE(shape.matches(shape_doc(floats)));
}
