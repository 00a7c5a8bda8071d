// The engine against the reference package's own bytes. Needs the reference installed: skipped in
// the plain unit run, run by the compat ctest `receipt_engine_reference` (tests/compat/engine.cmake)
// with BP_REFERENCE_DIR=<...>/node_modules/@mcptoolshop/backprop-trace and --no-skip.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/reproduce/reproduce.hpp"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

fs::path fixtures_dir() {
  const char* dir = std::getenv("BP_REFERENCE_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "BP_REFERENCE_DIR is not set");
  REQUIRE_MESSAGE(fs::is_directory(fs::path(dir) / "fixtures"), "no fixtures/ under BP_REFERENCE_DIR");
  return fs::path(dir) / "fixtures";
}

std::string fixture_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<ordered_json> records(const fs::path& p) {
  auto recs = common::parse_jsonl_text(fixture_text(p), {.file = p.string()});
  REQUIRE_MESSAGE(recs.ok(), (recs.ok() ? "" : recs.error().to_string()));
  std::vector<ordered_json> out;
  for (auto& r : *recs) out.push_back(std::move(r.value));
  return out;
}

template <class Receipts>
std::string emitted_text(const Receipts& receipts) {
  auto bytes = receipt::emit::emit_receipts(receipts);
  REQUIRE_MESSAGE(bytes.ok(), (bytes.ok() ? "" : bytes.error().to_string()));
  return *bytes;
}

std::vector<receipt::engine::EngineReceipt> reproduced(const fs::path& p) {
  auto out = receipt::reproduce::reproduce(records(p));
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : p.string() + ": " + out.error().to_string()));
  return std::move(*out);
}

std::vector<ordered_json> reproduced_documents(const fs::path& p) {
  std::vector<ordered_json> out;
  for (const auto& r : reproduced(p)) out.push_back(receipt::engine::to_json(r));
  return out;
}

}  // namespace

TEST_CASE("compat: engine builtins emit the reference goldens byte for byte" * doctest::skip()) {
  const fs::path dir = fixtures_dir();
  const std::pair<const char*, const char*> cases[] = {
      {"mazur", "mazur.golden.jsonl"},           {"xor", "xor.golden.jsonl"},
      {"iris", "iris.golden.jsonl"},             {"xor-per-neuron-bias", "xor-per-neuron-bias.golden.jsonl"},
      {"softmax-ce", "softmax-ce.golden.jsonl"}, {"xor-multi-step", "xor.multi-step.jsonl"}};
  for (const auto& [name, file] : cases) {
    CAPTURE(name);
    auto r = receipt::engine::generate_builtin(name);
    REQUIRE(r.ok());
    CHECK(emitted_text(*r) == fixture_text(dir / file));
  }
}

TEST_CASE("compat: engine reproduces every engine-made reference golden byte for byte" * doctest::skip()) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fixtures_dir())) {
    if (e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 11);  // mazur, xor (+multi), iris, per-neuron, softmax-ce, hero (+multi), coupled L2 (x3)
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    CHECK(emitted_text(reproduced(f)) == fixture_text(f));
  }
}

// Imported receipts carry foreign claims; where the foreign framework agreed with binary64 to 9
// digits, every engine-computed field must equal the golden's bytes. Provenance fields (fixture
// status, source framework, attestor, schema version) are taken from the golden.
TEST_CASE("compat: engine recomputes the engine fields of the imported goldens" * doctest::skip()) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fixtures_dir() / "external")) {
    const std::string name = e.path().filename().string();
    if (name.find(".golden.jsonl") != std::string::npos) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 15);
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    const auto golden = records(f);
    auto ours = reproduced_documents(f);
    REQUIRE(ours.size() == golden.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      for (const char* key : {"schema_version", "fixture_status", "source_framework", "attestor"}) {
        if (golden[i].contains(key)) ours[i][key] = golden[i][key];
      }
    }
    CHECK(emitted_text(ours) == fixture_text(f));
  }
}
