#include "common/canonical_json.hpp"

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("canonical_json: compact objects and arrays, commas placed by the writer") {
  common::CompactJsonWriter w;
  w.begin_object();
  w.key("lr");
  REQUIRE(w.number(0.5).ok());
  w.key("ids");
  w.begin_array();
  w.string("a");
  w.string("b\"");
  w.begin_object();
  w.end_object();
  w.end_array();
  w.key("n");
  REQUIRE(w.integer(3).ok());
  w.key("ok");
  w.boolean(true);
  w.key("none");
  w.null();
  w.key("raw");
  w.raw_value("[1]");
  w.end_object();
  CHECK(w.take() == R"({"lr":0.500000000,"ids":["a","b\"",{}],"n":3,"ok":true,"none":null,"raw":[1]})");
}

TEST_CASE("canonical_json: number errors leave the text untouched") {
  common::CompactJsonWriter w;
  w.begin_array();
  CHECK_FALSE(w.number(1e7).ok());
  CHECK_FALSE(w.number(NAN).ok());
  CHECK_FALSE(w.integer(1.5).ok());
  REQUIRE(w.number(-0.0).ok());
  w.end_array();
  CHECK(w.text() == "[0.000000000]");
}
