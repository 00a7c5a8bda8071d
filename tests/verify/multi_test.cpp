// The streaming gate as a library call (verify/multi.hpp): the two-step golden passes, each record
// and each cross-record failure told to the observer in the report's order; a step_index out of
// order fails the cross-record check with Rule 10 and nothing else; a record that fails its schema
// voids the cross-record evidence; input that is not a bundle stops with the failure that says why;
// any number of jobs gives the observer the same calls in the same order, the same outcome and
// the same first error as one job.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "reconcile/result_json.hpp"
#include "verify/multi.hpp"
#include "verify/multi_run.hpp"
#include "verify/report_json.hpp"
#include "verify_fixtures.hpp"

namespace {

using verify::CheckStatus;

// Trailing spaces that make a record line long (64 KiB, where verify multi once switched readers).
constexpr std::size_t kPad = std::size_t{64} * 1024;

struct Seen final : verify::MultiObserver {
  std::vector<std::string> records;  // "schema[i]=pass reconcile[i]=fail (fixture id)"
  std::vector<int> cross_rules;
  std::vector<std::size_t> counted_before;
  int voided = 0;
  bool fail_keeping = false;

  void record(std::size_t index, const verify::ReceiptLabel& label, const verify::Check& schema,
              const verify::Check& reconcile) override {
    records.push_back(std::to_string(index) + " " + schema.name + "=" + std::string(verify::status_name(schema.status)) +
                      " " + reconcile.name + "=" + std::string(verify::status_name(reconcile.status)) + " (" +
                      label.fixture_id.value_or("?") + ")");
  }
  void cross_failure(const reconcile::Failure& f, std::size_t before) override {
    cross_rules.push_back(f.rule);
    counted_before.push_back(before);
  }
  void cross_failures_void() override {
    ++voided;
    cross_rules.clear();
  }
  bool failed() override { return fail_keeping; }
};

std::vector<std::string> bundle() { return verify_test::fixture_lines("xor.multi-step.jsonl"); }

// The bundle with record 1 claiming step_index 2 (everything else consistent).
std::string out_of_order() {
  auto lines = bundle();
  auto second = nlohmann::ordered_json::parse(lines[1]);
  second["step_index"] = 2;
  lines[1] = second.dump();
  return verify_test::joined(lines);
}

// Every call an observer gets, in full, in order.
struct Transcript final : verify::MultiObserver {
  std::string calls;
  void record(std::size_t index, const verify::ReceiptLabel& label, const verify::Check& schema,
              const verify::Check& reconcile) override {
    calls += "record " + std::to_string(index) + " " + label.schema_version.value_or("-") + " " +
             label.fixture_id.value_or("-") + " " + verify::check_json(schema).dump() + " " +
             verify::check_json(reconcile).dump() + "\n";
  }
  void cross_failure(const reconcile::Failure& f, std::size_t before) override {
    calls += "cross " + std::to_string(before) + " " + reconcile::to_json(f).dump() + "\n";
  }
  void cross_failures_void() override { calls += "void\n"; }
};

std::string outcome_text(const verify::MultiOutcome& out) {
  std::string all = "overall " + out.overall + " records " + std::to_string(out.records) + " first " + out.first_problem + "\n";
  for (const auto& c : out.cross) all += verify::check_json(c).dump() + "\n";
  all += reconcile::to_json(out.bundle).dump() + "\n";
  return all;
}

// Everything verify_multi tells about `text` run with `jobs`: the observer's calls, then the
// outcome or the error.
std::string run_with_jobs(const std::string& text, std::size_t jobs) {
  const verify_test::TextInput in(text);
  Transcript seen;
  auto out = verify::verify_multi(in.fd(), "b.jsonl", {{}, jobs}, &seen);
  std::string all = seen.calls;
  if (!out) {
    return all + "error " + std::to_string(static_cast<int>(out.error().failure())) + " line " +
           std::to_string(out.error().line()) + ": " + out.error().message() + "\n";
  }
  return all + outcome_text(*out);
}

// The reference for the document reading: every line read as an ordered_json tree, prepared in
// its tree form and folded by one MultiRun, as verify multi did before it read documents.
std::string tree_path(const std::vector<std::string>& lines) {
  Transcript seen;
  verify::MultiRun run({}, &seen);
  for (const auto& line : lines) {
    auto tree = common::parse_json_text(line);
    REQUIRE(tree.ok());
    auto record = verify::prepare_record(std::move(*tree), run.records());
    run.add(record);
  }
  return seen.calls + outcome_text(run.finish());
}

// 16 records: the golden's two steps, repeated (so Rules 9 and 10 fail across the repeats).
std::vector<std::string> long_bundle() {
  std::vector<std::string> lines;
  for (int i = 0; i < 8; ++i) {
    for (const auto& l : bundle()) lines.push_back(l);
  }
  return lines;
}

}  // namespace

TEST_CASE("multi: the two-step golden passes; the observer sees both records in order") {
  const verify_test::TextInput in(verify_test::joined(bundle()));
  Seen seen;
  auto out = verify::verify_multi(in.fd(), "xor.multi-step.jsonl", {}, &seen);
  REQUIRE(out.ok());
  CHECK(out->overall == "pass");
  CHECK(out->records == 2);
  CHECK(seen.records == std::vector<std::string>{"0 schema[0]=pass reconcile[0]=pass (xor-multi-step-step-0)",
                                                 "1 schema[1]=pass reconcile[1]=pass (xor-multi-step-step-1)"});
  REQUIRE(out->cross.size() == 1);
  CHECK(out->cross[0].name == "multi-step-rules-9-10");
  CHECK(out->cross[0].status == CheckStatus::pass);
  CHECK_FALSE(out->rules_evidence_sent);
  CHECK(out->has_coverage);
  CHECK(out->first_problem.empty());
}

TEST_CASE("multi: a step_index out of order fails the cross-record check with Rule 10 alone") {
  const verify_test::TextInput in(out_of_order());
  Seen seen;
  auto out = verify::verify_multi(in.fd(), "bundle", {}, &seen);
  REQUIRE(out.ok());
  CHECK(out->overall == "fail");
  CHECK(seen.records[1] == "1 schema[1]=pass reconcile[1]=pass (xor-multi-step-step-1)");
  CHECK(seen.cross_rules == std::vector<int>{10});
  CHECK(seen.counted_before == std::vector<std::size_t>{0});
  CHECK(out->cross[0].status == CheckStatus::fail);
  CHECK(out->cross[0].message == "1 cross-record rule failure(s)");
  CHECK(out->rules_evidence_sent);
  CHECK(out->first_problem == "multi-step-rules-9-10: 1 cross-record rule failure(s)");
}

TEST_CASE("multi: without an observer the verdict is the same") {
  const verify_test::TextInput in(out_of_order());
  auto out = verify::verify_multi(in.fd(), "bundle", {});
  REQUIRE(out.ok());
  CHECK(out->overall == "fail");
  CHECK(out->records == 2);
}

TEST_CASE("multi: a record that fails its schema skips the cross-record check and voids its evidence") {
  auto lines = bundle();
  auto second = nlohmann::ordered_json::parse(lines[1]);
  second.erase("updates");
  lines[1] = second.dump();
  const verify_test::TextInput in(verify_test::joined(lines));
  Seen seen;
  auto out = verify::verify_multi(in.fd(), "bundle", {}, &seen);
  REQUIRE(out.ok());
  CHECK(out->overall == "fail");
  CHECK(seen.voided == 1);
  CHECK(seen.records[1] == "1 schema[1]=fail reconcile[1]=skip (xor-multi-step-step-1)");
  CHECK(out->cross[0].status == CheckStatus::skip);
  CHECK(out->first_problem.rfind("schema[1]: schema validation failed", 0) == 0);
}

TEST_CASE("multi: input that is not a bundle stops with the failure that says why") {
  SUBCASE("blank lines only") {
    const verify_test::TextInput in("\n  \n");
    auto out = verify::verify_multi(in.fd(), "empty.jsonl", {});
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().failure() == verify::StreamFailure::no_records);
  }
  SUBCASE("a line that is not JSON") {
    const verify_test::TextInput in(bundle()[0] + "\n{not json\n");
    auto out = verify::verify_multi(in.fd(), "b.jsonl", {});
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().failure() == verify::StreamFailure::not_json);
    CHECK(out.error().line() == 2);
    CHECK(out.error().message().rfind("Invalid JSON at line 2: b.jsonl:2", 0) == 0);
  }
  SUBCASE("a long line that is not JSON is worded as a short one is") {
    const std::string pad(kPad, ' ');
    const verify_test::TextInput in(bundle()[0] + "\n{not json" + pad + "\n");
    const verify_test::TextInput short_in(bundle()[0] + "\n{not json\n");
    auto out = verify::verify_multi(in.fd(), "b.jsonl", {});
    auto short_out = verify::verify_multi(short_in.fd(), "b.jsonl", {});
    REQUIRE_FALSE(out.ok());
    REQUIRE_FALSE(short_out.ok());
    CHECK(out.error().failure() == verify::StreamFailure::not_json);
    CHECK(out.error().message() == short_out.error().message());
  }
  SUBCASE("an observer that could not keep the report") {
    const verify_test::TextInput in(verify_test::joined(bundle()));
    Seen seen;
    seen.fail_keeping = true;
    auto out = verify::verify_multi(in.fd(), "b.jsonl", {}, &seen);
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().failure() == verify::StreamFailure::observer_failed);
    CHECK(out.error().code() == common::ErrorCode::io);
  }
}

TEST_CASE("multi: --jobs 2, 3 and 8 tell the observer and the caller what one job does, for every damage at every record") {
  const auto lines = long_bundle();
  struct Variant {
    std::string what;
    std::string text;
  };
  std::vector<Variant> variants{{"repeated steps", verify_test::joined(lines)}, {"out of order", out_of_order()}};
  for (std::size_t k = 0; k < lines.size(); ++k) {
    auto bad_json = lines;
    bad_json[k] = "{not json";
    if (k + 2 < lines.size()) bad_json[k + 2] = "[1,";  // a later error, possibly parsed first, never wins
    variants.push_back({"bad JSON at " + std::to_string(k), verify_test::joined(bad_json)});
    auto bad_schema = lines;
    auto doc = nlohmann::ordered_json::parse(bad_schema[k]);
    doc.erase("updates");
    bad_schema[k] = doc.dump();
    variants.push_back({"schema failure at " + std::to_string(k), verify_test::joined(bad_schema)});
  }
  for (const auto& v : variants) {
    CAPTURE(v.what);
    const std::string one = run_with_jobs(v.text, 1);
    for (std::size_t jobs : {2, 3, 8}) {
      CAPTURE(jobs);
      CHECK(run_with_jobs(v.text, jobs) == one);
    }
  }
  // What one job says is the first error in input order.
  auto bad_json = lines;
  bad_json[9] = "{not json";
  bad_json[11] = "[1,";
  const std::string one = run_with_jobs(verify_test::joined(bad_json), 1);
  CHECK(one.find("error 2 line 10: Invalid JSON at line 10") != std::string::npos);
  CHECK(one.rfind("record 8 ", one.find("error")) != std::string::npos);  // records 0-8 were folded
}

TEST_CASE("multi: records read as documents get the tree's report, byte for byte, schema failures among them") {
  const auto golden = bundle();
  auto unknown_key = nlohmann::ordered_json::parse(golden[1]);
  unknown_key["surprise"] = 1;
  auto wrong_type = nlohmann::ordered_json::parse(golden[0]);
  wrong_type["step_index"] = "zero";
  std::string huge = "[";
  for (int i = 0; i < 200000; ++i) huge += i == 0 ? "{}" : ",{}";
  huge += "]";
  const std::vector<std::pair<std::string, std::string>> damages{
      {"unknown key", unknown_key.dump()}, {"wrong type", wrong_type.dump()}, {"not an object", "[1,\"two\"]"},
      {"a string", "\"receipt\""}, {"huge array", huge}};
  std::vector<std::pair<std::string, std::vector<std::string>>> bundles{{"the golden", golden}};
  for (const auto& [what, line] : damages) {
    for (std::size_t k = 0; k <= golden.size(); ++k) {  // first (record 0 decides trace-identity), middle, last
      auto lines = golden;
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(k), line);
      bundles.push_back({what + " at " + std::to_string(k), lines});
    }
  }
  std::vector<std::string> all{golden[0]};
  for (const auto& d : damages) all.push_back(d.second);
  all.push_back(golden[1]);
  bundles.push_back({"every damage between the two steps", all});
  for (const auto& [what, lines] : bundles) {
    CAPTURE(what);
    const std::string want = tree_path(lines);
    // As they are, then every line padded with 64 KiB of spaces.
    auto padded = lines;
    for (auto& line : padded) line.append(kPad, ' ');
    for (const auto& text : {verify_test::joined(lines), verify_test::joined(padded)}) {
      CHECK(run_with_jobs(text, 1) == want);
      CHECK(run_with_jobs(text, 3) == want);
    }
  }
  // Not vacuous: the damaged records fail their schema and the golden's pass.
  const std::string report = tree_path(all);
  for (int k = 1; k <= 5; ++k) {
    CHECK(report.find("{\"name\":\"schema[" + std::to_string(k) + "]\",\"status\":\"fail\"") != std::string::npos);
  }
  CHECK(report.find("{\"name\":\"schema[6]\",\"status\":\"pass\"") != std::string::npos);
  CHECK(report.find("overall fail records 7") != std::string::npos);
}

TEST_CASE("multi: a record read as a document is checked by the rules only when its schema passes") {
  const auto golden = bundle();
  auto passing = common::parse_json_document(golden[0]);
  REQUIRE(passing.ok());
  auto p = verify::prepare_record(std::move(*passing), 0);
  CHECK(p.schema.status == CheckStatus::pass);
  REQUIRE(p.own.has_value());
  CHECK(p.facts.has_value());
  auto failing = common::parse_json_document(std::string("[{},{},{}]"));
  REQUIRE(failing.ok());
  auto q = verify::prepare_record(std::move(*failing), 1);
  CHECK(q.schema.status == CheckStatus::fail);
  CHECK_FALSE(q.own.has_value());
  CHECK_FALSE(q.facts.has_value());
  CHECK_FALSE(q.traced);
  // Each hands its text back, whose storage the stream reader reads the next line into.
  CHECK(p.text == golden[0]);
  CHECK(q.text == "[{},{},{}]");
}

TEST_CASE("multi: a folded record gets its own result back, to be freed where it was made") {
  const auto golden = bundle();
  verify::MultiRun run({}, nullptr);
  for (std::size_t i = 0; i < golden.size(); ++i) {
    auto doc = common::parse_json_document(golden[i]);
    REQUIRE(doc.ok());
    auto p = verify::prepare_record(std::move(*doc), i);
    REQUIRE(p.own.has_value());
    const auto evaluated = p.own->rules_evaluated;
    run.add(p);
    REQUIRE(p.own.has_value());
    CHECK(p.own->rules_evaluated == evaluated);
  }
  CHECK(run.finish().overall == "pass");
}

// Records repeat their topology and policies byte for byte; the schema check and the engine's
// input reader reuse what they made of a member the record before had (by its bytes). A member
// that changes in the middle of a run, by a byte, by its spacing only or by its keys' order, is
// read again: the report is the tree reading's, which reuses nothing.
TEST_CASE("multi: a repeated member that changes mid-run is read again, whatever the change") {
  const auto golden = bundle();
  const auto replaced = [](std::string line, const std::string& from, const std::string& to) {
    const auto at = line.find(from);
    REQUIRE(at != std::string::npos);
    return line.replace(at, from.size(), to);
  };
  const auto edited = [](const std::string& line, const std::function<void(nlohmann::ordered_json&)>& edit) {
    auto tree = nlohmann::ordered_json::parse(line);
    edit(tree);
    return tree.dump();
  };
  using Edit = std::function<std::string(const std::string&)>;
  const std::vector<std::pair<std::string, Edit>> changes{
      {"a topology role the schema refuses", [&](const std::string& l) { return replaced(l, "\"input_to_hidden_weight\"", "\"input_to_hidden_weighs\""); }},
      {"a topology unit renamed", [&](const std::string& l) { return replaced(l, "\"hidden\":[\"h1\",\"h2\"]", "\"hidden\":[\"h1\",\"h3\"]"); }},
      {"topology spacing only", [&](const std::string& l) { return replaced(l, "\"topology\":{\"layers\"", "\"topology\": { \"layers\" "); }},
      {"a looser tolerance", [&](const std::string& l) { return edited(l, [](auto& t) { t["numeric_policy"]["tolerance"]["atol"] = 0.5; }); }},
      {"a tolerance the schema refuses", [&](const std::string& l) { return edited(l, [](auto& t) { t["numeric_policy"]["tolerance"]["atol"] = "0"; }); }},
      {"bias policy keys reordered", [&](const std::string& l) {
         return edited(l, [](auto& t) {
           auto b = nlohmann::ordered_json::object();
           for (auto it = t["bias_policy"].rbegin(); it != t["bias_policy"].rend(); ++it) b[it.key()] = it.value();
           t["bias_policy"] = b;
         });
       }},
      {"the metadata dropped", [&](const std::string& l) { return edited(l, [](auto& t) { t.erase("metadata"); }); }}};
  for (const auto& [what, change] : changes) {
    for (const std::size_t k : {std::size_t{0}, std::size_t{3}, std::size_t{7}}) {
      CAPTURE(what);
      CAPTURE(k);
      std::vector<std::string> lines;
      for (int i = 0; i < 4; ++i) lines.insert(lines.end(), golden.begin(), golden.end());
      lines[k] = change(lines[k]);
      REQUIRE(lines[k] != golden[k % 2]);
      const std::string want = tree_path(lines);
      CHECK(run_with_jobs(verify_test::joined(lines), 1) == want);
      CHECK(run_with_jobs(verify_test::joined(lines), 2) == want);
    }
  }
  // Not vacuous: the refused role fails record 3's schema alone, the renamed unit its rules.
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i) lines.insert(lines.end(), golden.begin(), golden.end());
  lines[3] = changes[0].second(lines[3]);
  const std::string report = run_with_jobs(verify_test::joined(lines), 1);
  CHECK(report.find("{\"name\":\"schema[3]\",\"status\":\"fail\"") != std::string::npos);
  CHECK(report.find("{\"name\":\"schema[4]\",\"status\":\"pass\"") != std::string::npos);
}
