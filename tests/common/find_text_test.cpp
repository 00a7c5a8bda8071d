#include "common/find_text.hpp"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("find_text: std::string_view::find's answers, where a needle's first byte is everywhere") {
  std::string text;
  for (int i = 0; i < 500; ++i) text += ",\"k\":1";
  text += ",\"bundle_root_digest\":\"x\"";
  for (int i = 0; i < 500; ++i) text += ",\"k\":2";
  const std::string_view t(text);
  for (const std::string_view needle : {std::string_view(",\"bundle_root_digest\":\""), std::string_view(",\"k\":2"),
                                        std::string_view(",\"k\":3"), std::string_view(","), std::string_view("")}) {
    CAPTURE(needle);
    for (const std::size_t from : {std::size_t{0}, std::size_t{1}, std::size_t{3000}, text.size() - 1, text.size(),
                                   text.size() + 1}) {
      CAPTURE(from);
      CHECK(common::find_text(t, needle, from) == t.find(needle, from));
    }
  }
  CHECK(common::find_text("aaa", "aa", 1) == 1);  // overlapping occurrences
  CHECK(common::find_text("", "a") == std::string_view::npos);
}
