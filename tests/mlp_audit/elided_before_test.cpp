// Receipts that leave out `before` after a stream's first (MlpReceiptWriter's default,
// before="first"): derived here from fixtures/mlp/relu-adam-clip.jsonl, a real run written with
// `before` on every receipt, by cutting the section out of its later lines and renewing the chain.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <span>
#include <fstream>
#include <string>
#include <vector>

#include "common/base64.hpp"
#include "common/sha256.hpp"
#include "mlp_audit/verify.hpp"
#include "nl_audit/tensor_entry.hpp"
#include "support/suite_paths.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> full_run() {
  std::ifstream in(fs::path(suite_test::source_dir()) / "fixtures" / "mlp" / "relu-adam-clip.jsonl", std::ios::binary);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  REQUIRE(out.size() == 3);
  return out;
}

// Each line's previous_sha256 made the SHA-256 of the line before it again.
void rechain(std::vector<std::string>& lines) {
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string key = "\"previous_sha256\":\"";
    const std::size_t at = lines[i].find(key);
    REQUIRE(at != std::string::npos);
    lines[i].replace(at + key.size(), 64, common::sha256_hex(lines[i - 1]));
  }
}

std::string without_before(std::string line) {
  const std::size_t from = line.find(",\"before\":"), to = line.find(",\"gradients\":");
  REQUIRE(from != std::string::npos);
  REQUIRE(to > from);
  return line.erase(from, to - from);
}

// `before` after every line but the first left out.
std::vector<std::string> elided(std::vector<std::string> lines) {
  for (std::size_t i = 1; i < lines.size(); ++i) lines[i] = without_before(lines[i]);
  rechain(lines);
  return lines;
}

struct Run {
  mlp_audit::StreamVerifier v{"r.jsonl"};
  std::string error;  // the first malformed line's, if any
};

Run verify(const std::vector<std::string>& lines) {
  Run r;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const common::Status s = r.v.add(lines[i], static_cast<std::int64_t>(i + 1));
    if (!s.ok()) {
      r.error = s.error().to_string();
      break;
    }
  }
  return r;
}

}  // namespace

TEST_CASE("mlp_audit: receipts without `before` after the first verify as the full run does, rule by rule") {
  const std::vector<std::string> full = full_run(), cut = elided(full);
  CHECK(cut[1].size() < full[1].size());
  const Run a = verify(full), b = verify(cut);
  REQUIRE(a.error.empty());
  REQUIRE(b.error.empty());
  CHECK(b.v.receipts() == 3);
  CHECK(b.v.failure_count() == 0);
  CHECK(b.v.kinks() == a.v.kinks());
  for (unsigned rule = 1; rule <= 7; ++rule) {
    CAPTURE(rule);
    CHECK(b.v.tally()[rule].checked == a.v.tally()[rule].checked);
    CHECK(b.v.tally()[rule].failed == 0);
  }
}

TEST_CASE("mlp_audit: a receipt without `before` read without the receipt before it is refused, naming /before") {
  const std::vector<std::string> cut = elided(full_run());
  // The first receipt dropped: the stream starts at a receipt that continues one it does not hold.
  const Run dropped_first = verify({cut[1], cut[2]});
  CHECK(dropped_first.v.receipts() == 0);
  CHECK(dropped_first.error.find("r.jsonl:1: /before: missing: receipt 1 continues the previous receipt") != std::string::npos);
  CHECK(dropped_first.error.find("is not in the stream") != std::string::npos);
  CHECK(dropped_first.error.find('\n') == std::string::npos);
  // Read alone: the same.
  CHECK(verify({cut[2]}).error.find("r.jsonl:1: /before: missing: receipt 2") != std::string::npos);
}

TEST_CASE("mlp_audit: a dropped middle receipt between receipts without `before` fails the chain") {
  const std::vector<std::string> cut = elided(full_run());
  const Run r = verify({cut[0], cut[2]});
  REQUIRE(r.error.empty());
  REQUIRE(r.v.failure_count() > 0);
  CHECK(r.v.failures().front().rule == 1);
}

TEST_CASE("mlp_audit: a `before` whose digest is not the previous receipt's after fails continuity, also after a receipt without `before`") {
  std::vector<std::string> lines = elided(full_run());
  // Line 3 carries its before again, one entry of its first tensor changed (data and digest agree).
  std::string third = full_run()[2];
  const std::string key = "\"before\":{\"tensors\":[{\"name\":\"layers.0.weight\",\"dtype\":\"f32\",\"shape\":[12,6],\"sha256\":\"";
  const std::size_t at = third.find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t digest_at = at + key.size(), data_at = digest_at + 64 + std::string("\",\"data\":\"").size();
  const std::size_t data_end = third.find('"', data_at);
  auto bytes = common::decode_base64(std::string_view(third).substr(data_at, data_end - data_at));
  REQUIRE(bytes);
  std::vector<float> values(bytes->size() / sizeof(float));
  std::memcpy(values.data(), bytes->data(), bytes->size());
  values[0] *= 1.5f;
  const std::string data = common::encode_base64(std::as_bytes(std::span(values)));
  third.replace(data_at, data_end - data_at, data);
  third.replace(digest_at, 64, nl_audit::f32_digest(values));
  lines[2] = third;
  rechain(lines);
  const Run r = verify(lines);
  REQUIRE(r.error.empty());
  REQUIRE(r.v.failure_count() > 0);
  CHECK(r.v.failures().front().rule == 2);
  CHECK(r.v.failures().front().tensor == "layers.0.weight");
  // Unchanged, the same before passes: the tamper is what failed.
  std::vector<std::string> honest = elided(full_run());
  honest[2] = full_run()[2];
  rechain(honest);
  const Run ok = verify(honest);
  REQUIRE(ok.error.empty());
  CHECK(ok.v.failure_count() == 0);
}

TEST_CASE("mlp_audit: a receipt without `before` after one of another model fails continuity, and the stream goes on") {
  std::vector<std::string> lines = elided(full_run());
  const std::string from = "\"lr\":0.01,\"weight_decay\"", to = "\"lr\":0.02,\"weight_decay\"";  // the optimizer's lr in line 1's model
  const std::size_t at = lines[0].find(from);
  REQUIRE(at != std::string::npos);
  lines[0].replace(at, from.size(), to);
  rechain(lines);
  const Run r = verify(lines);
  REQUIRE(r.error.empty());
  CHECK(r.v.receipts() == 3);
  REQUIRE(r.v.failure_count() > 0);
  bool continuity = false;
  for (const mlp_audit::Failure& f : r.v.failures()) continuity = continuity || (f.rule == 2 && f.step == 1);
  CHECK(continuity);
}
