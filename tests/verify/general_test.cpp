// The single-receipt gates as library calls (verify/general.hpp): the goldens of fixtures/ pass
// every check in the reference's order; a tampered gradient fails reconcile with the Rule 4
// failure as evidence and engine-reproduce at the field; a v0.1.0 receipt is sent to mazur; a
// Mazur fixture that cannot be read fails its check with the reader's words, and loading the
// fixtures first names the file that is missing or not JSON.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "verify/general.hpp"
#include "verify/report_json.hpp"
#include "verify_fixtures.hpp"

namespace {

using verify::CheckStatus;

std::vector<std::string> names(const verify::VerifyReport& r) {
  std::vector<std::string> out;
  for (const auto& c : r.checks) out.push_back(c.name);
  return out;
}

const verify::Check& check(const verify::VerifyReport& r, const std::string& name) {
  for (const auto& c : r.checks) {
    if (c.name == name) return c;
  }
  FAIL("no check " << name);
  return r.checks.front();
}

verify::MazurOptions mazur_options() {
  verify::MazurOptions o;
  o.fixtures.golden_path = verify_test::fixture_path("mazur.golden.jsonl");
  o.fixtures.published_path = verify_test::fixture_path("mazur.published.json");
  return o;
}

// The first reconcile failure's rule and field, from the check's evidence.
std::pair<int, std::string> first_failure(const verify::Check& c) {
  REQUIRE(c.evidence.has_value());
  REQUIRE(c.evidence->is_array());
  REQUIRE_FALSE(c.evidence->empty());
  const auto& f = c.evidence->front();
  return {f.at("rule").get<int>(), f.at("field_path").get<std::string>()};
}

}  // namespace

TEST_CASE("general: every v0.2 golden passes schema, reconcile and engine-reproduce") {
  for (const char* name : {"xor.golden.jsonl", "iris.golden.jsonl", "softmax-ce.golden.jsonl",
                           "xor-per-neuron-bias.golden.jsonl"}) {
    CAPTURE(name);
    const auto r = verify::verify_general(verify_test::fixture_json(name), {{}, name});
    CHECK(r.overall == "pass");
    CHECK(names(r) == std::vector<std::string>{"schema", "reconcile", "engine-reproduce"});
    CHECK(r.has_coverage);
    CHECK_FALSE(r.rules_evaluated.empty());
  }
}

TEST_CASE("general: a tampered gradient fails reconcile with Rule 4 and engine-reproduce at the field") {
  auto receipt = verify_test::fixture_json("xor.golden.jsonl");
  receipt["updates"][0]["gradient"] = 0.0063;
  const auto r = verify::verify_general(receipt, {{}, "xor.json"});
  CHECK(r.overall == "fail");
  CHECK(check(r, "schema").status == CheckStatus::pass);
  const auto& rec = check(r, "reconcile");
  CHECK(rec.status == CheckStatus::fail);
  CHECK(rec.message == "2 rule failure(s)");
  CHECK(first_failure(rec) == std::pair<int, std::string>{4, "updates[0].gradient"});
  const auto& engine = check(r, "engine-reproduce");
  CHECK(engine.status == CheckStatus::fail);
  CHECK(engine.evidence->at("field") == "updates[0].gradient");
}

TEST_CASE("general: a v0.1.0 receipt stops at schema-dispatch, naming verify mazur and the subject") {
  const auto r = verify::verify_general(verify_test::fixture_json("mazur.golden.jsonl"), {{}, "m.json"});
  REQUIRE(r.checks.size() == 1);
  CHECK(r.checks[0].name == "schema-dispatch");
  CHECK(r.checks[0].status == CheckStatus::fail);
  CHECK(r.checks[0].message->find("'bp verify mazur m.json'") != std::string::npos);
  CHECK(r.overall == "fail");
}

TEST_CASE("general: a receipt read as a document gets the tree's report, byte for byte") {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> cases;
  for (const char* name : {"xor.golden.jsonl", "iris.golden.jsonl", "softmax-ce.golden.jsonl", "mazur.golden.jsonl"})
    cases.emplace_back(name, verify_test::fixture_json(name));
  auto xor_receipt = verify_test::fixture_json("xor.golden.jsonl");
  auto tampered = xor_receipt;
  tampered["updates"][0]["gradient"] = 0.0063;  // reconcile and engine-reproduce fail
  cases.emplace_back("tampered gradient", tampered);
  auto unknown = xor_receipt;
  unknown["surprise"] = nlohmann::ordered_json::array({nlohmann::ordered_json::object(), 1, "x"});  // schema fails
  cases.emplace_back("unknown key", unknown);
  auto missing = xor_receipt;
  missing.erase("topology");
  cases.emplace_back("no topology", missing);
  auto version = xor_receipt;
  version["schema_version"] = "9.9.9";
  cases.emplace_back("unknown version", version);
  cases.emplace_back("not an object", nlohmann::ordered_json::array({1, 2}));
  for (const auto& [label, receipt] : cases) {
    CAPTURE(label);
    const verify::GeneralOptions options{{}, label};
    const std::string want = verify::report_json(verify::verify_general(receipt, options)).dump();
    auto doc = common::parse_json_document(receipt.dump(), {});
    REQUIRE(doc);
    CHECK(verify::report_json(verify::verify_general(std::move(*doc), options)).dump() == want);
  }
}

TEST_CASE("general: --strict fails a warning that passes otherwise") {
  verify::VerifyReport r;
  r.add({"a", CheckStatus::warn});
  r.finalize({});
  CHECK(r.overall == "warn");
  r.finalize({.warn_as_fail = false, .strict = true});
  CHECK(r.overall == "fail");
  CHECK(verify::first_problem(r) == "a");
}

TEST_CASE("mazur: the golden passes all six checks against the fixtures") {
  const auto r = verify::verify_mazur(verify_test::fixture_json("mazur.golden.jsonl"), mazur_options());
  CHECK(r.overall == "pass");
  CHECK(names(r) == std::vector<std::string>{"schema", "reconcile", "engine-reproduce", "byte-equal-vs-golden",
                                             "fixture-status", "published-anchor-drift"});
}

TEST_CASE("mazur: a tampered gradient fails reconcile (Rule 4) and engine-reproduce; the golden still matches") {
  auto receipt = verify_test::fixture_json("mazur.golden.jsonl");
  receipt["updates"][0]["gradient"] = receipt["updates"][0]["gradient"].get<double>() + 0.001;
  const auto r = verify::verify_mazur(receipt, mazur_options());
  CHECK(r.overall == "fail");
  CHECK(first_failure(check(r, "reconcile")).first == 4);
  CHECK(check(r, "engine-reproduce").status == CheckStatus::fail);
  CHECK(check(r, "byte-equal-vs-golden").status == CheckStatus::pass);
  CHECK(check(r, "fixture-status").status == CheckStatus::pass);
}

TEST_CASE("mazur: a golden the reader cannot give fails byte-equal-vs-golden with the reader's message") {
  auto options = mazur_options();
  options.fixtures.read = [](const std::string& path, std::size_t) -> common::Result<std::string> {
    return common::Error::io("no such fixture: " + path);
  };
  options.fixtures.golden_path = "gone.jsonl";
  const auto r = verify::verify_mazur(verify_test::fixture_json("mazur.golden.jsonl"), options);
  CHECK(r.overall == "fail");
  CHECK(check(r, "byte-equal-vs-golden").message == "byte-equal check could not run: no such fixture: gone.jsonl");
  CHECK(check(r, "published-anchor-drift").status == CheckStatus::fail);
}

TEST_CASE("mazur: load_mazur_fixtures names the fixture that is missing or not JSON, and serves what it read") {
  auto options = mazur_options();
  auto loaded = verify::load_mazur_fixtures(options.fixtures);
  REQUIRE(loaded.ok());
  const auto r = verify::verify_mazur(verify_test::fixture_json("mazur.golden.jsonl"), {options.verdict, *loaded});
  CHECK(r.overall == "pass");

  auto broken = options.fixtures;
  broken.read = [&](const std::string& path, std::size_t) -> common::Result<std::string> {
    if (path == broken.published_path) return std::string("{");
    return verify_test::fixture_text("mazur.golden.jsonl");
  };
  auto malformed = verify::load_mazur_fixtures(broken);
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.error().where().file == broken.published_path);
  CHECK(malformed.error().to_string().find("invalid JSON") != std::string::npos);

  broken.golden_path = "gone.jsonl";
  broken.read = [](const std::string&, std::size_t) -> common::Result<std::string> {
    return common::Error::io("no such fixture");
  };
  auto missing = verify::load_mazur_fixtures(broken);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().to_string() == "gone.jsonl: no such fixture");
}

TEST_CASE("mazur: a receipt read as a document gets the tree's report, byte for byte") {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> cases;
  const auto golden = verify_test::fixture_json("mazur.golden.jsonl");
  cases.emplace_back("golden", golden);
  auto tampered = golden;
  tampered["updates"][0]["gradient"] = tampered["updates"][0]["gradient"].get<double>() + 0.001;
  cases.emplace_back("tampered gradient", tampered);
  auto unknown = golden;
  unknown["surprise"] = nlohmann::ordered_json::array({nlohmann::ordered_json::object(), 1, "x"});
  cases.emplace_back("unknown key", unknown);
  auto missing = golden;
  missing.erase("topology");
  cases.emplace_back("no topology", missing);
  cases.emplace_back("a v0.2 receipt", verify_test::fixture_json("xor.golden.jsonl"));
  cases.emplace_back("not an object", nlohmann::ordered_json::array({1, 2}));
  for (const auto& [label, receipt] : cases) {
    CAPTURE(label);
    const std::string want = verify::report_json(verify::verify_mazur(receipt, mazur_options())).dump();
    auto doc = common::parse_json_document(receipt.dump(), {});
    REQUIRE(doc);
    CHECK(verify::report_json(verify::verify_mazur(std::move(*doc), mazur_options())).dump() == want);
  }
}
