#include "importer/source_placeholder.hpp"

#include <doctest/doctest.h>

#include <string>

namespace source_placeholder_test {

const std::string kP = "0123456789abcdef0123456789abcdef" "fedcba9876543210fedcba9876543210";
const std::string kReal = "sha256:" + std::string(32, 'a') + std::string(32, 'b');

}  // namespace source_placeholder_test

namespace spt = source_placeholder_test;

TEST_CASE("source_placeholder: the hash, and the trace_id made of its first half, replaced in place") {
  const importer::SourcePlaceholder p(spt::kP);
  CHECK(p.source_hash() == "sha256:" + spt::kP);
  std::string text = R"({"source_hash":"sha256:)" + spt::kP + R"(","x":1})";
  REQUIRE(p.patch(text, spt::kReal, false));
  CHECK(text == R"({"source_hash":")" + spt::kReal + R"(","x":1})");

  std::string traced = R"({"trace_id":")" + spt::kP.substr(0, 32) + R"(","source_hash":"sha256:)" + spt::kP + R"("})";
  REQUIRE(p.patch(traced, spt::kReal, true));
  CHECK(traced == R"({"trace_id":")" + std::string(32, 'a') + R"(","source_hash":")" + spt::kReal + R"("})");
}

TEST_CASE("source_placeholder: a text that does not hold it exactly as written is refused, unchanged") {
  const importer::SourcePlaceholder p(spt::kP);
  const std::string hash = "sha256:" + spt::kP;
  for (const std::string& bad : {
           std::string("{}"),                                             // not there
           "[\"" + hash + "\",\"" + hash + "\"]",                         // twice
           "[\"" + hash + "\",\"" + spt::kP.substr(0, 32) + "\"]",             // a trace_id not asked for
           "[\"" + hash + "\",\"" + spt::kP.substr(32) + "\"]",                // its second half again
           "[\"sha256:" + spt::kP.substr(32) + spt::kP.substr(0, 32) + "\"]",       // halves swapped
       }) {
    std::string text = bad;
    CHECK_FALSE(p.patch(text, spt::kReal, false));
    CHECK(text == bad);
  }
  std::string untraced = "[\"" + hash + "\"]";
  CHECK_FALSE(p.patch(untraced, spt::kReal, true));  // the trace_id asked for is missing
  CHECK(untraced == "[\"" + hash + "\"]");
  CHECK_FALSE(p.patch(untraced, "sha256:abc", false));  // not a whole digest
}

TEST_CASE("source_placeholder: each is drawn afresh, 64 lowercase hex digits") {
  const importer::SourcePlaceholder a, b;
  CHECK(a.source_hash() != b.source_hash());
  REQUIRE(a.source_hash().size() == 71);
  CHECK(a.source_hash().rfind("sha256:", 0) == 0);
  CHECK(a.source_hash().find_first_not_of("0123456789abcdef", 7) == std::string::npos);
  CHECK_THROWS_AS(importer::SourcePlaceholder("ABC"), std::invalid_argument);
}
