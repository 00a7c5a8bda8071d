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

TEST_CASE("canonical_json: commas after nested and empty containers, and after a refused number") {
  common::CompactJsonWriter w;
  w.begin_object();
  w.key("a");
  CHECK_FALSE(w.number(1e300).ok());  // refused after its key: the key still waits for its value
  REQUIRE(w.number(1).ok());
  w.key("b");
  w.begin_array();
  w.begin_array();
  w.end_array();
  w.begin_array();
  REQUIRE(w.number(2).ok());
  CHECK_FALSE(w.number(-1e7).ok());  // refused after an element: no comma left behind
  REQUIRE(w.number(3).ok());
  w.end_array();
  w.begin_object();
  w.end_object();
  w.end_array();
  w.key("c");
  w.begin_object();
  w.key("d");
  w.begin_array();
  w.end_array();
  w.end_object();
  w.end_object();
  CHECK(w.take() == R"({"a":1.00000000,"b":[[],[2.00000000,3.00000000],{}],"c":{"d":[]}})");
}
