#include <doctest/doctest.h>

#include "common/error.hpp"

TEST_CASE("error: to_string is file:line: path: message") {
  const auto e = common::Error::malformed("must be integer", common::Location{"cfg.json", 3, "/step"});
  CHECK(e.to_string() == "cfg.json:3: /step: must be integer");
  CHECK(common::Error::io("gone").to_string() == "gone");
}

TEST_CASE("error: quoted input with control characters stays on one line") {
  const auto e = common::Error::malformed("'a\nb\tc\x01' is not an identifier",
                                          common::Location{"x\ny.json", 0, "/ids/a\rb"});
  CHECK(e.to_string() == "x\\ny.json: /ids/a\\rb: 'a\\nb\\tc\\x01' is not an identifier");
  CHECK(e.message() == "'a\nb\tc\x01' is not an identifier");  // the message itself is untouched
}

TEST_CASE("error: excerpt keeps short input whole and cuts long input on a character boundary") {
  CHECK(common::excerpt("short") == "short");
  CHECK(common::excerpt(std::string(200, 'x')) == std::string(200, 'x'));
  CHECK(common::excerpt(std::string(201, 'x')) == std::string(200, 'x') + "...(201 bytes)");
  // "é" is two bytes; a cut at byte 5 would split the second one.
  CHECK(common::excerpt("abcd\xC3\xA9\xC3\xA9", 5) == "abcd...(8 bytes)");
}

TEST_CASE("error: to_string cuts a huge JSON path or message, so a 50 MB key is not echoed whole") {
  const std::string key(1'000'000, 'k');
  const common::Error e = common::Error::malformed("unknown key '" + key + "'", {"f.json", 2, "/" + key});
  const std::string line = e.to_string();
  CHECK(line.size() < common::kMaxErrorPathBytes + common::kMaxErrorMessageBytes + 100);
  CHECK(line.starts_with("f.json:2: /kkk"));
  CHECK(line.find("...(1000001 bytes): unknown key 'kkk") != std::string::npos);
  CHECK(line.ends_with("...(1000014 bytes)"));
}
