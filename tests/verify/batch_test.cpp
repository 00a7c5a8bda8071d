// Many receipts in one run (verify/batch.hpp): a directory names its receipt files in path order
// (an entry so named that is no regular file, with the reason it cannot be read), a v0.1.0
// receipt gets the Mazur gate and any other the general one, and the tally says what the
// summary line does.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "verify/batch.hpp"
#include "verify/report_json.hpp"
#include "verify_fixtures.hpp"

TEST_CASE("batch: a directory contributes its *.json and *.jsonl files, recursively, in path order") {
  const auto dir = std::filesystem::temp_directory_path() / ("verify_batch_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  for (const char* name : {"b.jsonl", "a.JSON", "notes.txt", "sub/c.json"}) std::ofstream(dir / name) << "{}";
  const auto paths = verify::receipt_paths(dir.string());
  CHECK_FALSE(paths.error.has_value());
  CHECK(paths.files == std::vector<std::string>{(dir / "a.JSON").string(), (dir / "b.jsonl").string(),
                                                (dir / "sub/c.json").string()});
  CHECK(verify::receipt_paths("-").files == std::vector<std::string>{"-"});
  CHECK(verify::receipt_paths((dir / "b.jsonl").string()).files.size() == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("batch: a directory entry named like a receipt that is no regular file is listed with why, never skipped") {
  const auto dir = std::filesystem::temp_directory_path() / ("verify_batch_holes_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "linked-dir.json");
  std::ofstream(dir / "a.json") << "{}";
  std::filesystem::create_symlink("../gone/b.jsonl", dir / "b.jsonl");
  REQUIRE(::mkfifo((dir / "c.json").c_str(), 0600) == 0);
  const auto paths = verify::receipt_paths(dir.string());
  CHECK(paths.files == std::vector<std::string>{(dir / "a.json").string(), (dir / "b.jsonl").string(),
                                                (dir / "c.json").string()});
  CHECK(paths.unreadable_reason((dir / "a.json").string()) == nullptr);
  const auto* dangling = paths.unreadable_reason((dir / "b.jsonl").string());
  REQUIRE(dangling != nullptr);
  CHECK(dangling->message() == "dangling symbolic link (its target ../gone/b.jsonl does not exist)");
  const auto* fifo = paths.unreadable_reason((dir / "c.json").string());
  REQUIRE(fifo != nullptr);
  CHECK(fifo->message() == "not a regular file (a FIFO)");
  std::filesystem::remove_all(dir);
}

TEST_CASE("batch: a v0.1.0 receipt gets the Mazur gate, a v0.2.0 one the general gate") {
  verify::MazurFixtures fixtures{verify_test::fixture_path("mazur.golden.jsonl"),
                                 verify_test::fixture_path("mazur.published.json"), {}};
  const auto mazur = verify::verify_receipt(verify_test::fixture_json("mazur.golden.jsonl"), {{}, "m"}, fixtures);
  CHECK(mazur.overall == "pass");
  CHECK(mazur.checks.back().name == "published-anchor-drift");
  const auto xor_report = verify::verify_receipt(verify_test::fixture_json("xor.golden.jsonl"), {{}, "x"}, fixtures);
  CHECK(xor_report.overall == "pass");
  CHECK(xor_report.checks.back().name == "engine-reproduce");
  // Read as documents (bp verify general with several files): the same gates, the same reports.
  for (const char* name : {"mazur.golden.jsonl", "xor.golden.jsonl"}) {
    CAPTURE(name);
    const auto tree = verify_test::fixture_json(name);
    auto doc = common::parse_json_document(tree.dump(), {});
    REQUIRE(doc);
    CHECK(verify::gets_mazur_gate(doc->root()) == verify::gets_mazur_gate(tree));
    CHECK(verify::report_json(verify::verify_receipt(std::move(*doc), {{}, name}, fixtures)).dump() ==
          verify::report_json(verify::verify_receipt(tree, {{}, name}, fixtures)).dump());
  }
}

TEST_CASE("batch: the tally counts verdicts and unreadable files") {
  verify::BatchTally t;
  CHECK(t.add_verdict("pass") == verify::CheckStatus::pass);
  CHECK(t.add_verdict("warn") == verify::CheckStatus::warn);
  CHECK(t.ok());
  CHECK(t.add_verdict("fail") == verify::CheckStatus::fail);
  CHECK_FALSE(t.ok());
  t.add_error();
  CHECK(t.receipts == 4);
  CHECK(t.passed == 1);
  CHECK(t.warned == 1);
  CHECK(t.failed == 1);
  CHECK(t.errors == 1);
}
