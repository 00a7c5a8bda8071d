// Where two canonical JSON texts part (verify/divergence.hpp): the path of the value holding the
// first differing byte and each side's text of it.
#include <doctest/doctest.h>

#include <string_view>

#include "verify/divergence.hpp"

namespace {

verify::Divergence at_first_difference(std::string_view ours, std::string_view theirs) {
  std::size_t i = 0;
  while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i]) ++i;
  return verify::locate_divergence(ours, theirs, i);
}

}  // namespace

TEST_CASE("divergence: a number inside an array of objects is named by its path") {
  const auto d = at_first_difference(R"({"a":1,"u":[{"g":0.5},{"g":0.25}]})", R"({"a":1,"u":[{"g":0.5},{"g":0.75}]})");
  CHECK(d.path == "u[1].g");
  CHECK(d.ours == "0.25");
  CHECK(d.theirs == "0.75");
}

TEST_CASE("divergence: a difference inside a key names the object, not a member") {
  const auto key = at_first_difference(R"({"o":{"ab":1},"p":2})", R"({"o":{"ac":1},"p":2})");
  CHECK(key.path == "o");
  const auto root = at_first_difference(R"({"ab":1})", R"({"ac":1})");
  CHECK(root.path.empty());
}
