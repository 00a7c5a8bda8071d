// The shared key=value line reader: numbering, offsets (what a trailer covers), '\r' handling.
#include "hybrid/format/kv_lines.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace hybrid;

TEST_CASE("kv_lines: lines are numbered from 1 with the offset where each starts") {
  LineReader r("a=1\n\nb=2=3\r\nlast");
  std::vector<TextLine> got;
  while (auto l = r.next()) got.push_back(*l);
  REQUIRE(got.size() == 4);
  CHECK(got[0].text == "a=1");
  CHECK(got[0].offset == 0);
  CHECK(got[1].text.empty());
  CHECK(got[1].offset == 4);
  CHECK(got[2].text == "b=2=3\r");  // kept unless asked
  CHECK(got[2].number == 3);
  CHECK(got[2].offset == 5);
  CHECK(got[3].text == "last");  // a last line without '\n' is still a line
  CHECK(got[3].number == 4);
  CHECK(got[3].offset == 12);
}

TEST_CASE("kv_lines: a trailing newline ends the last line and adds none; Cr::strip drops one '\\r'") {
  LineReader r("x=1\r\n", LineReader::Cr::strip);
  auto l = r.next();
  REQUIRE(l.has_value());
  CHECK(l->text == "x=1");
  CHECK_FALSE(r.next().has_value());
  LineReader empty("");
  CHECK_FALSE(empty.next().has_value());
}

TEST_CASE("kv_lines: split_key_value splits at the first '='") {
  auto kv = split_key_value("plan=a=b");
  REQUIRE(kv.has_value());
  CHECK(kv->key == "plan");
  CHECK(kv->value == "a=b");
  auto empty_key = split_key_value("=v");
  REQUIRE(empty_key.has_value());
  CHECK(empty_key->key.empty());
  CHECK_FALSE(split_key_value("no equals").has_value());
}
