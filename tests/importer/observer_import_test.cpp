#include "importer/observer_import.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "common/json_input.hpp"
#include "common/sha256.hpp"
#include "sidecar_fixture.hpp"

using nlohmann::ordered_json;
using namespace importer_test;

namespace {

importer::ImportOptions options(importer::Framework f = importer::Framework::pytorch) {
  importer::ImportOptions o;
  o.framework = f;
  o.import_timestamp = "2026-01-02T03:04:05.000Z";
  return o;
}

ordered_json only_receipt(const importer::ImportResult& r) {
  auto doc = common::parse_json_text(r.bytes);
  REQUIRE(doc.ok());
  return *doc;
}

const importer::Disagreement* find(const importer::StepOutcome& s, const std::string& path) {
  for (const auto& d : s.disagreements) {
    if (d.field_path == path) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("observer_import: an honest sidecar imports with the differential agreeing") {
  const std::string bytes = softmax_sidecar().dump(2);
  auto r = importer::import_sidecar(bytes, options());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  CHECK(r->all_passed());
  CHECK(r->steps.size() == 1);
  CHECK_FALSE(r->bundle_root_digest.has_value());
  const ordered_json receipt = only_receipt(*r);
  CHECK(receipt["schema_version"] == "0.4.0");
  CHECK(receipt["fixture_status"]["verification_state"] == "engine_recompute_matched_within_tolerance");
  CHECK(receipt["attestor"]["import_provenance"]["source_hash"] == "sha256:" + common::sha256_hex(bytes));
  CHECK(receipt["attestor"]["import_provenance"]["import_timestamp"] == "2026-01-02T03:04:05.000Z");
  CHECK(receipt["source_framework"]["extractor"]["name"] == "bp-import-pytorch");
  // Same bytes in, same bytes out.
  auto again = importer::import_sidecar(bytes, options());
  REQUIRE(again.ok());
  CHECK(again->bytes == r->bytes);
}

TEST_CASE("observer_import: a tampered claim still yields the receipt, marked disagreed") {
  ordered_json s = softmax_sidecar();
  s["forward"]["o1"]["out"] = s["forward"]["o1"]["out"].get<double>() + 0.01;
  auto r = importer::import_sidecar(s.dump(), options());
  REQUIRE(r.ok());
  CHECK_FALSE(r->all_passed());
  const auto* d = find(r->steps[0], "forward.o1.out");
  REQUIRE(d != nullptr);
  CHECK_FALSE(d->extended);  // the reference compares this one too
  CHECK(d->delta == doctest::Approx(0.01).epsilon(1e-6));
  CHECK(only_receipt(*r)["fixture_status"]["verification_state"] == "engine_recompute_disagreed");
}

TEST_CASE("observer_import: fields the reference skips are compared (extended)") {
  const ordered_json base = softmax_sidecar();
  const std::string first = base["updates"][0]["parameter_id"].get<std::string>();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"loss", "total"}, "loss.total"},
      {{"updates", "0", "weight_before"}, "updates[" + first + "].weight_before"},
      {{"updates", "0", "optimizer", "learning_rate"}, "updates[" + first + "].optimizer.learning_rate"},
      {{"backward", "hidden_error_signals", "h1", "downstream_contributions", "0", "value"},
       "backward.hidden_error_signals.h1.downstream_contributions[0].value"},
      {{"post_update_loss", "total"}, "post_update_loss.total"}};
  for (const auto& [keys, path] : cases) {
    CAPTURE(path);
    ordered_json s = base;
    ordered_json* node = &s;
    for (const auto& k : keys) node = node->is_array() ? &(*node)[std::stoul(k)] : &(*node)[k];
    *node = node->get<double>() + 0.5;
    auto r = importer::import_sidecar(s.dump(), options());
    REQUIRE(r.ok());
    const auto* d = find(r->steps[0], path);
    REQUIRE(d != nullptr);
    CHECK(d->extended);
  }
}

TEST_CASE("observer_import: an extra forward unit or a dropped update is a completeness disagreement") {
  // (A dropped forward unit cannot reach the differential: the receipt cannot be written without it.)
  ordered_json s = softmax_sidecar();
  s["forward"]["zz"] = {{"net", 1.0}, {"out", 0.5}};
  auto r = importer::import_sidecar(s.dump(), options());
  REQUIRE(r.ok());
  const auto* d = find(r->steps[0], "forward.zz");
  REQUIRE(d != nullptr);
  CHECK(std::isnan(d->delta));
  CHECK(d->extended);
  ordered_json u = softmax_sidecar();
  const std::string pid = u["updates"][0]["parameter_id"].get<std::string>();
  u["updates"].erase(0);
  auto r2 = importer::import_sidecar(u.dump(), options());
  REQUIRE_MESSAGE(r2.ok(), (r2.ok() ? "" : r2.error().to_string()));
  CHECK(find(r2->steps[0], "updates[" + pid + "]") != nullptr);
}

TEST_CASE("observer_import: refusals name the importer and the reason") {
  const ordered_json s = softmax_sidecar();
  auto jax = importer::import_sidecar(s.dump(), options(importer::Framework::jax));
  REQUIRE_FALSE(jax.ok());
  CHECK(jax.error().message().rfind("bp import jax: sidecar declares source_framework.name='pytorch'", 0) == 0);
  auto empty = importer::import_sidecar(" \n\t", options());
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message().find("sidecar is empty") != std::string::npos);
  ordered_json multi = s;
  multi["format"] = "framework-trace.v0.2.0";
  auto wrong_mode = importer::import_sidecar(multi.dump(), options());
  REQUIRE_FALSE(wrong_mode.ok());
  CHECK(wrong_mode.error().message().find("MULTI-STEP") != std::string::npos);
  ordered_json mislabel = s;
  mislabel["format"] = "framework-trace.v0.5.0";
  auto m = importer::import_sidecar(mislabel.dump(), options());
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().message().find("MISLABELED") != std::string::npos);
  ordered_json schema = s;
  schema["inputs"]["x1"] = "0.5";
  auto v = importer::import_sidecar(schema.dump(), options());
  REQUIRE_FALSE(v.ok());
  CHECK(v.error().message().find("validation: /inputs") != std::string::npos);
}

TEST_CASE("observer_import: multi-step binds the bundle and keeps the sequence dense") {
  const auto records = xor_trace();
  auto r = importer::import_sidecar_stream(jsonl(records), options());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  CHECK(r->all_passed());
  REQUIRE(r->steps.size() == records.size());
  REQUIRE(r->bundle_root_digest.has_value());
  // The digest covers the canonical bytes without the digest itself.
  const std::string unbound = std::regex_replace(r->bytes, std::regex(",\"bundle_root_digest\":\"sha256:[0-9a-f]{64}\""), "");
  CHECK(*r->bundle_root_digest == "sha256:" + common::sha256_hex(unbound));
  auto lines = common::parse_jsonl_text(r->bytes);
  REQUIRE(lines.ok());
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const ordered_json& rec = (*lines)[i].value;
    CHECK(rec["step_index"] == static_cast<std::int64_t>(i));
    CHECK(rec["step"] == static_cast<std::int64_t>(i + 1));
    CHECK(rec["attestor"]["bundle_root_digest"] == *r->bundle_root_digest);
  }
}

TEST_CASE("observer_import: multi-step refuses gaps, mixed frameworks and single-step records") {
  auto records = xor_trace();
  REQUIRE(records.size() >= 2);
  auto gap = records;
  gap[1]["step_index"] = 2;
  auto g = importer::import_sidecar_stream(jsonl(gap), options());
  REQUIRE_FALSE(g.ok());
  CHECK(g.error().message().find("step_index sequence violated at line 2") != std::string::npos);
  auto mixed = records;
  mixed[1]["source_framework"]["version"] = "9.9.9";
  auto mx = importer::import_sidecar_stream(jsonl(mixed), options());
  REQUIRE_FALSE(mx.ok());
  CHECK(mx.error().message().find("framework mismatch at sidecar line 2") != std::string::npos);
  auto single = importer::import_sidecar_stream(softmax_sidecar().dump() + "\n", options());
  REQUIRE_FALSE(single.ok());
  CHECK(single.error().message().find("Use the single-step subcommand") != std::string::npos);
  auto none = importer::import_sidecar_stream("\n\n", options());
  REQUIRE_FALSE(none.ok());
}

TEST_CASE("observer_import: multi-step without trace_id synthesizes it from the source hash") {
  auto records = xor_trace();
  for (auto& r : records) {
    r.erase("trace_id");
    r.erase("step_index");
  }
  const std::string bytes = jsonl(records);
  auto r = importer::import_sidecar_stream(bytes, options());
  REQUIRE(r.ok());
  auto lines = common::parse_jsonl_text(r->bytes);
  REQUIRE(lines.ok());
  for (const auto& rec : *lines) CHECK(rec.value["trace_id"] == common::sha256_hex(bytes).substr(0, 32));
}

TEST_CASE("observer_import: multi-step failures rank as if every record were checked before any was witnessed") {
  // Records are imported one at a time, yet the error is the one the whole-bundle order gives:
  // a record's own failure, then the cross-record rules, then the first witness failure.
  const auto records = xor_trace();
  REQUIRE(records.size() >= 2);
  auto unwitnessable = records;  // valid against the schema; the engine refuses it
  unwitnessable[0]["inputs"].erase(unwitnessable[0]["inputs"].begin().key());
  auto w = importer::import_sidecar_stream(jsonl(unwitnessable), options());
  REQUIRE_FALSE(w.ok());
  CHECK_MESSAGE(w.error().message().find("record 1 (step_index 0) failed during engine recompute") != std::string::npos,
                w.error().message());

  auto later_schema = unwitnessable;  // a later record's own failure wins
  later_schema.back()["inputs"] = "x";
  auto s = importer::import_sidecar_stream(jsonl(later_schema), options());
  REQUIRE_FALSE(s.ok());
  CHECK_MESSAGE(s.error().message().find("sidecar line " + std::to_string(records.size())) != std::string::npos,
                s.error().message());

  auto later_gap = unwitnessable;  // and so does a broken cross-record rule at the last line
  later_gap.back()["step_index"] = 99;
  auto g = importer::import_sidecar_stream(jsonl(later_gap), options());
  REQUIRE_FALSE(g.ok());
  CHECK_MESSAGE(g.error().message().find("step_index sequence violated at line " + std::to_string(records.size())) !=
                    std::string::npos, g.error().message());

  auto unwritable_first = records;  // a witness failure wins over an earlier emission failure
  unwritable_first[0]["inputs"][unwritable_first[0]["inputs"].begin().key()] = 1e300;
  unwritable_first[1]["inputs"].erase(unwritable_first[1]["inputs"].begin().key());
  auto e = importer::import_sidecar_stream(jsonl(unwritable_first), options());
  REQUIRE_FALSE(e.ok());
  CHECK_MESSAGE(e.error().message().find("record 2 (step_index 1) failed during engine recompute") != std::string::npos,
                e.error().message());
  unwritable_first.pop_back();  // and alone, the emission failure names its field
  auto alone = importer::import_sidecar_stream(jsonl(unwritable_first), options());
  REQUIRE_FALSE(alone.ok());
  CHECK_MESSAGE(alone.error().message().find("record 1: PLAIN_DECIMAL_OUT_OF_SCOPE") != std::string::npos,
                alone.error().message());
  CHECK(alone.error().message().find("(receipt field /inputs/") != std::string::npos);

  auto first_untraced = records;  // record 1 decides the trace_id; a mix is still refused
  first_untraced[0].erase("trace_id");
  first_untraced[0].erase("step_index");
  auto t = importer::import_sidecar_stream(jsonl(first_untraced), options());
  REQUIRE_FALSE(t.ok());
  CHECK_MESSAGE(t.error().message().find("trace_id co-presence violated") != std::string::npos, t.error().message());
  CHECK(t.error().message().find("missing trace_id: line 1.") != std::string::npos);
  auto other_trace = records;
  other_trace[1]["trace_id"] = std::string(32, 'e');
  auto o = importer::import_sidecar_stream(jsonl(other_trace), options());
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().message().find("trace_id mismatch at line 2") != std::string::npos);
}

TEST_CASE("observer_import: only the digest field gets the digest, not a sidecar string that spells its placeholder") {
  auto records = xor_trace();
  const std::string placeholder = "sha256:" + std::string(64, '0');
  for (auto& r : records) r["source_framework"]["version"] = placeholder;
  auto r = importer::import_sidecar_stream(jsonl(records), options());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  REQUIRE(r->bundle_root_digest.has_value());
  CHECK(*r->bundle_root_digest != placeholder);
  auto lines = common::parse_jsonl_text(r->bytes);
  REQUIRE(lines.ok());
  REQUIRE(lines->size() == records.size());
  for (const auto& line : *lines) {
    CHECK(line.value["source_framework"]["version"] == placeholder);
    CHECK(line.value["attestor"]["computed_by"]["identity"] == "pytorch@" + placeholder);
    CHECK(line.value["attestor"]["bundle_root_digest"] == *r->bundle_root_digest);
  }
}
