#include "common/json_release.hpp"

#include <doctest/doctest.h>

#include <string>

#include "common/json_input.hpp"

using ojson = nlohmann::ordered_json;

TEST_CASE("json_release: frees a document leaves first and leaves it null") {
  auto doc = common::parse_json_text(R"({"a":[1,{"b":[[],{}],"c":"text that is longer than fifteen"}],"d":{"e":null}})");
  REQUIRE(doc);
  common::release_json(*doc);
  CHECK(doc->is_null());
  ojson scalar = 3.5;
  common::release_json(scalar);
  CHECK(scalar.is_null());
}

TEST_CASE("json_release: a document deeper than the reader's limit is left to the destructor") {
  ojson deep = ojson::array();
  for (std::size_t i = 0; i < 4 * common::kMaxJsonNestingDepth; ++i) deep = ojson::array({std::move(deep), i});
  common::release_json(deep);
  CHECK(deep.is_null());
}
