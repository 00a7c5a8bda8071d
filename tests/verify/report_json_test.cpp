// verify/report_json.hpp: append_check_json writes exactly what js_stringify(check_json(c)) does,
// for every optional member, strings that need escaping and evidence of every JSON kind.
#include "verify/report_json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/js_json_text.hpp"

namespace report_json_test {

std::vector<verify::Check> checks() {
  std::vector<verify::Check> out;
  verify::Check plain;
  plain.name = "schema[0]";
  plain.status = verify::CheckStatus::pass;
  out.push_back(plain);
  verify::Check worded = plain;
  worded.name = "reconcile[12]";
  worded.status = verify::CheckStatus::fail;
  worded.message = std::string("2 rule failure(s) \"quoted\" \\ back\nslash, tab\t, \x01, é, \xe2\x80\xa8 and \xff");
  out.push_back(worded);
  verify::Check exempt = worded;
  exempt.status = verify::CheckStatus::warn;
  exempt.strict_exempt = true;
  out.push_back(exempt);
  verify::Check skipped = plain;
  skipped.status = verify::CheckStatus::skip;
  skipped.message = "skipped — schema validation failed for this record";
  out.push_back(skipped);
  for (const char* evidence : {R"({"b":1,"a":[1.5,-0.0,1e21,1e-7,null,true,"x"],"n":{}})", R"([])", R"("text")", R"(0.1)"}) {
    verify::Check with = worded;
    with.evidence = nlohmann::ordered_json::parse(evidence);
    out.push_back(with);
  }
  return out;
}

}  // namespace report_json_test

TEST_CASE("report_json: append_check_json writes js_stringify(check_json(c)), byte for byte") {
  for (const auto& c : report_json_test::checks()) {
    std::string got = "prefix,";
    verify::append_check_json(got, c);
    CHECK(got == "prefix," + common::js_stringify(verify::check_json(c)));
  }
}
