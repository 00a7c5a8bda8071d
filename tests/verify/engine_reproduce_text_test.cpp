// engine-reproduce given the receipt's own text (verify/checks.hpp). When our bytes equal that
// text the re-emission of the receipt is skipped; that is sound only because canonical emission
// is idempotent, which the first case checks on every receipt of fixtures/. The others: the
// verdict and its evidence are the same with and without the text, for goldens and tampered
// receipts alike, through verify_general's JsonDocument path and through a batch's verify_receipt.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "verify/batch.hpp"
#include "verify/checks.hpp"
#include "verify/general.hpp"
#include "verify_fixtures.hpp"

namespace {

const std::vector<std::string> kGoldens = {"xor.golden.jsonl", "iris.golden.jsonl", "softmax-ce.golden.jsonl",
                                           "xor-per-neuron-bias.golden.jsonl"};

nlohmann::ordered_json tree_of(const std::string& text) {
  auto doc = common::parse_json_document(text);
  REQUIRE(doc.ok());
  return common::to_ordered_json(doc->root());
}

void check_same(const verify::Check& a, const verify::Check& b) {
  CHECK(a.status == b.status);
  CHECK(a.message == b.message);
  CHECK(a.evidence.has_value() == b.evidence.has_value());
  if (a.evidence && b.evidence) CHECK(a.evidence->dump() == b.evidence->dump());
}

}  // namespace

TEST_CASE("engine-reproduce text: emitting the parse of an emitted receipt gives its bytes back") {
  std::vector<std::string> names = kGoldens;
  names.push_back("mazur.golden.jsonl");
  names.push_back("xor.multi-step.jsonl");
  int lines = 0;
  for (const auto& name : names) {
    for (const auto& line : verify_test::fixture_lines(name)) {
      if (line.empty()) continue;
      CAPTURE(name);
      auto again = receipt::emit::emit_receipt_line(tree_of(line));
      REQUIRE(again.ok());
      CHECK(*again == line + "\n");
      ++lines;
    }
  }
  CHECK(lines >= 7);
}

TEST_CASE("engine-reproduce text: the same verdict and evidence with the text as without it") {
  for (const auto& name : kGoldens) {
    CAPTURE(name);
    const std::string line = verify_test::fixture_lines(name).front();
    const auto tree = tree_of(line);
    const auto with = verify::engine_reproduce_check(tree, false, line);
    CHECK(with.status == verify::CheckStatus::pass);
    check_same(with, verify::engine_reproduce_check(tree, false));
    check_same(verify::engine_reproduce_check(tree, false, line + "\n"), with);

    // Tampered: its text is its own canonical emission, which is not ours.
    auto tampered = tree;
    tampered["updates"][0]["gradient"] = 0.0063;
    auto tampered_text = receipt::emit::emit_receipt_line(tampered);
    REQUIRE(tampered_text.ok());
    const auto bad = verify::engine_reproduce_check(tampered, false, *tampered_text);
    CHECK(bad.status == verify::CheckStatus::fail);
    CHECK(bad.evidence->at("field") == "updates[0].gradient");
    check_same(bad, verify::engine_reproduce_check(tampered, false));

    // Not canonical text (a space after the first colon): the re-emission decides, and passes.
    std::string spaced = line;
    spaced.insert(spaced.find(':') + 1, " ");
    check_same(verify::engine_reproduce_check(tree_of(spaced), false, spaced), with);
  }
}

TEST_CASE("engine-reproduce text: equal to our bytes, the text is what is compared") {
  // A tree that is not the parse of the text: a gradient differs, which the engine recomputes,
  // so our bytes are still the text's. Given the text, the check compares with it and passes;
  // without it, the re-emission of the tree is compared and fails at the field. (In verify
  // general the tree is always the text's parse, so the two agree.)
  const std::string line = verify_test::fixture_lines("xor.golden.jsonl").front();
  auto tree = tree_of(line);
  tree["updates"][0]["gradient"] = 0.0063;
  CHECK(verify::engine_reproduce_check(tree, false, line).status == verify::CheckStatus::pass);
  const auto slow = verify::engine_reproduce_check(tree, false);
  CHECK(slow.status == verify::CheckStatus::fail);
  CHECK(slow.evidence->at("field") == "updates[0].gradient");
}

TEST_CASE("engine-reproduce text: verify general from a JsonDocument, golden and tampered") {
  for (const auto& name : kGoldens) {
    CAPTURE(name);
    const std::string text = verify_test::fixture_text(name);
    auto doc = common::parse_json_document(text);
    REQUIRE(doc.ok());
    const auto r = verify::verify_general(std::move(*doc), {{}, name});
    CHECK(r.overall == "pass");
    const auto tree_r = verify::verify_general(tree_of(text), {{}, name});
    CHECK(r.checks.size() == tree_r.checks.size());
    for (std::size_t i = 0; i < r.checks.size() && i < tree_r.checks.size(); ++i) check_same(r.checks[i], tree_r.checks[i]);
  }
  auto tampered = tree_of(verify_test::fixture_text("iris.golden.jsonl"));
  tampered["updates"][1]["gradient"] = 0.5;
  auto text = receipt::emit::emit_receipt_line(tampered);
  REQUIRE(text.ok());
  auto doc = common::parse_json_document(*text);
  REQUIRE(doc.ok());
  const auto r = verify::verify_general(std::move(*doc), {{}, "iris.json"});
  CHECK(r.overall == "fail");
  const auto tree_r = verify::verify_general(tampered, {{}, "iris.json"});
  REQUIRE(r.checks.size() == tree_r.checks.size());
  for (std::size_t i = 0; i < r.checks.size(); ++i) check_same(r.checks[i], tree_r.checks[i]);
}

TEST_CASE("engine-reproduce text: a batch's receipt is checked against the text it was read from") {
  const verify::MazurFixtures fixtures{verify_test::fixture_path("mazur.golden.jsonl"),
                                       verify_test::fixture_path("mazur.published.json"), {}};
  for (const auto& name : kGoldens) {
    CAPTURE(name);
    const std::string text = verify_test::fixture_text(name);
    const auto tree = tree_of(text);
    const auto with = verify::verify_receipt(tree, {{}, name}, fixtures, text);
    const auto without = verify::verify_receipt(tree, {{}, name}, fixtures);
    CHECK(with.overall == "pass");
    REQUIRE(with.checks.size() == without.checks.size());
    for (std::size_t i = 0; i < with.checks.size(); ++i) check_same(with.checks[i], without.checks[i]);
  }
  // The text reaches engine-reproduce: a tree whose gradient differs from its (golden) text
  // passes that check against the text, where the tree's own re-emission would not.
  const std::string text = verify_test::fixture_text("xor.golden.jsonl");
  auto tree = tree_of(text);
  tree["updates"][0]["gradient"] = 0.0063;
  const auto r = verify::verify_receipt(tree, {{}, "xor.json"}, fixtures, text);
  const auto without = verify::verify_receipt(tree, {{}, "xor.json"}, fixtures);
  auto status_of = [](const verify::VerifyReport& rep, const std::string& check) {
    for (const auto& c : rep.checks) {
      if (c.name == check) return c.status;
    }
    FAIL("no check " << check);
    return verify::CheckStatus::skip;
  };
  CHECK(status_of(r, "engine-reproduce") == verify::CheckStatus::pass);
  CHECK(status_of(without, "engine-reproduce") == verify::CheckStatus::fail);
}
