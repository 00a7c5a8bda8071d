// Rules 14-16 and 18-19: the engine differential on an observer receipt (including the deliberate
// difference from the reference: every recomputed number is compared), the skip basis, the
// attestation digest, batch reduction and the sample set.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "common/sha256.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/rules/attest_digest.hpp"
#include "rules_state_support.hpp"

using rules_state_test::Json;
using rules_state_test::run_rule;
namespace rules = reconcile::rules;

namespace {

// Our engine's XOR golden relabelled as an import: Rule 14 recomputes it bit for bit.
Json observer_xor() {
  Json r = rules_state_test::load_jsonl("fixtures/xor.golden.jsonl").at(0);
  r["fixture_status"]["authoring_state"] = "external_imported";
  r["fixture_status"]["verification_state"] = "engine_recompute_matched_within_tolerance";
  r["source_framework"] = Json::parse(R"({"name":"pytorch","version":"2.4.0",
      "information_uri":"https://pytorch.org/docs/stable/optim.html",
      "extractor":{"name":"bp-import-pytorch","version":"0.6.0"}})");
  r["attestor"] = Json::parse(R"({"computed_by":{"kind":"framework","identity":"pytorch@2.4.0"},
      "verified_by":{"kind":"engine","identity":"backprop-trace-engine@0.6.0"},
      "differential_tolerance":{"atol":0.000001,"rtol":0.0001}})");
  return r;
}

bool any_extended(const rules_state_test::Run& run) {
  return std::any_of(run.result.failures.begin(), run.result.failures.end(), [](const reconcile::Failure& f) {
    return f.message && f.message->find("(extended)") != std::string::npos;
  });
}

}  // namespace

TEST_CASE("rule 14: an honest observer receipt passes; a forged claim fails") {
  Json r = observer_xor();
  CHECK(run_rule(r, rules::check_rule_14_engine_differential).size() == 0);
  // Engine-authored receipts (no marker, no label) are not re-run.
  Json engine = rules_state_test::load_jsonl("fixtures/xor.golden.jsonl").at(0);
  engine["forward"]["h1"]["net"] = 9.0;
  CHECK(run_rule(engine, rules::check_rule_14_engine_differential).size() == 0);
  // A marker alone is enough (relabelling authoring_state does not dodge the gate).
  r = observer_xor();
  r["fixture_status"]["authoring_state"] = "engine_generated";
  r["forward"]["h1"]["net"] = r["forward"]["h1"]["net"].get<double>() * 1.01;
  auto run = run_rule(r, rules::check_rule_14_engine_differential);
  REQUIRE(run.size() >= 1);
  CHECK(run.at(0).rule == 14);
  CHECK(run.at(0).field_path == "forward.h1.net");
  // Inside the differential tolerance passes.
  r = observer_xor();
  r["forward"]["h1"]["net"] = r["forward"]["h1"]["net"].get<double>() * (1 + 1e-7);
  CHECK(run_rule(r, rules::check_rule_14_engine_differential).size() == 0);
  // A receipt cannot loosen the differential: 1e9 is clamped to the ceiling {1e-5, 1e-3}.
  r = observer_xor();
  r["attestor"]["differential_tolerance"] = Json{{"atol", 1e9}, {"rtol", 1e9}};
  r["loss"]["total"] = r["loss"]["total"].get<double>() * 1.01;
  run = run_rule(r, rules::check_rule_14_engine_differential);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "loss.total");
  // Completeness: a dropped update entry and a dropped parameters_after value are findings.
  r = observer_xor();
  r["updates"].erase(r["updates"].size() - 1);
  r["parameters_after"].erase("w_x1_h1");
  run = run_rule(r, rules::check_rule_14_engine_differential);
  const auto paths = run.paths();
  CHECK(std::count(paths.begin(), paths.end(), "parameters_after.w_x1_h1") == 1);
  CHECK(std::any_of(run.result.failures.begin(), run.result.failures.end(),
                    [](const reconcile::Failure& f) { return f.field_path.rfind("updates[", 0) == 0 && f.parameter_id; }));
}

TEST_CASE("rule 14: deliberate difference - every number the engine recomputes is compared") {
  // The reference compares forward/loss/signals/updates/parameters_after but not, for example, a
  // downstream contribution, an update's weight_before or learning_rate, or a factor value: it
  // accepts a receipt whose such claims are arbitrarily wrong. Ours rejects it.
  for (const char* field : {"contribution", "weight_before", "learning_rate", "factor"}) {
    CAPTURE(field);
    Json r = observer_xor();
    std::string expected;
    if (std::string(field) == "contribution") {
      auto& c = r["backward"]["hidden_error_signals"]["h1"]["downstream_contributions"][0]["value"];
      c = c.get<double>() * 3;
      expected = "backward.hidden_error_signals.h1.downstream_contributions[0].value";
    } else if (std::string(field) == "weight_before") {
      r["updates"][0]["weight_before"] = 42.0;
      expected = "updates[" + r["updates"][0]["parameter_id"].get<std::string>() + "].weight_before";
    } else if (std::string(field) == "learning_rate") {
      r["updates"][0]["optimizer"]["learning_rate"] = 7.0;
      expected = "updates[" + r["updates"][0]["parameter_id"].get<std::string>() + "].optimizer.learning_rate";
    } else {
      auto& v = r["updates"][0]["optimizer"]["factors"][0]["value"];
      v = v.get<double>() * 2;
      expected = "updates[" + r["updates"][0]["parameter_id"].get<std::string>() + "].optimizer.factors[0].value";
    }
    const auto run = run_rule(r, rules::check_rule_14_engine_differential);
    REQUIRE(run.size() == 1);
    CHECK(run.at(0).rule == 14);
    CHECK(run.at(0).field_path == expected);
    CHECK(any_extended(run));
  }
}

TEST_CASE("rule 14: an engine-refused input is one failure; a declared skip is reported") {
  Json r = observer_xor();
  r["batch"] = Json{{"size", 1}, {"sample_order", Json::array({"s0"})}, {"reduction", "max"}};
  r["per_sample"] = Json{{"s0", Json{{"inputs", r["inputs"]}, {"targets", r["targets"]}}}};
  auto run = run_rule(r, rules::check_rule_14_engine_differential);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "engine_recompute");

  r = observer_xor();
  r["fixture_status"]["verification_state"] = "engine_recompute_skipped_with_basis";
  r["forward"]["h1"]["net"] = 9.0;
  run = run_rule(r, rules::check_rule_14_engine_differential);
  CHECK(run.size() == 0);
  CHECK(run.math_gate_skipped);
}

TEST_CASE("rule 15: a skipped differential names its basis from the closed enum") {
  Json r = observer_xor();
  r["fixture_status"]["verification_state"] = "engine_recompute_skipped_with_basis";
  CHECK(run_rule(r, rules::check_rule_15_skip_basis).paths() == std::vector<std::string>{"attestor.skip_basis"});
  r["attestor"]["skip_basis"] = "";
  CHECK(run_rule(r, rules::check_rule_15_skip_basis).size() == 1);
  r["attestor"]["skip_basis"] = "it_was_fine";
  CHECK(run_rule(r, rules::check_rule_15_skip_basis).size() == 1);
  for (const char* basis : {"hardware_nondeterminism", "framework_op_unsupported", "distributed_only_field",
                            "attested_third_party"}) {
    r["attestor"]["skip_basis"] = basis;
    CHECK(run_rule(r, rules::check_rule_15_skip_basis).size() == 0);
  }
  r["fixture_status"]["verification_state"] = "engine_recompute_matched_within_tolerance";
  r["attestor"]["skip_basis"] = "it_was_fine";  // not skipping: no basis needed
  CHECK(run_rule(r, rules::check_rule_15_skip_basis).size() == 0);
}

TEST_CASE("rule 16: the signed digest binds the canonical bytes") {
  Json r = observer_xor();
  const auto bytes = rules::canonical_bytes(r);
  REQUIRE(bytes.ok);
  r["attestor"]["signed_subject_digest"] = "sha256:" + common::sha256_hex(bytes.text);
  CHECK(run_rule(r, rules::check_rule_16_attestation_digest).size() == 0);
  Json mutated = r;
  mutated["fixture"] = "renamed";
  CHECK(run_rule(mutated, rules::check_rule_16_attestation_digest).paths() ==
        std::vector<std::string>{"attestor.signed_subject_digest"});
  // Re-spelled numbers that print the same canonical bytes keep the digest.
  mutated = r;
  mutated["learning_rate"] = r["learning_rate"].get<double>() * (1 + 1e-15);
  CHECK(run_rule(mutated, rules::check_rule_16_attestation_digest).size() == 0);
  for (const char* bad : {"sha256:XYZ", "deadbeef", "SHA256:0000000000000000000000000000000000000000000000000000000000000000"}) {
    mutated = r;
    mutated["attestor"]["signed_subject_digest"] = bad;
    CHECK(run_rule(mutated, rules::check_rule_16_attestation_digest).size() == 1);
  }
  mutated = r;
  mutated["attestor"]["signed_subject_digest"] = "";  // gated off when empty
  CHECK(run_rule(mutated, rules::check_rule_16_attestation_digest).size() == 0);
}

TEST_CASE("rules 18 and 19: batch reduction and sample set") {
  Json r = Json::parse(R"({"batch":{"size":3,"sample_order":["a","b","c"],"reduction":"mean"},
                           "loss":{"per_sample":{"a":0.5,"b":1.0,"c":1.5},"total":1.0},
                           "per_sample":{"a":{},"b":{},"c":{}}})");
  CHECK(run_rule(r, rules::check_rule_18_batch_reduction).size() == 0);
  CHECK(run_rule(r, rules::check_rule_19_sample_set).size() == 0);
  r["loss"]["total"] = 3.0;  // the sum under a "mean" claim: off by N
  auto run = run_rule(r, rules::check_rule_18_batch_reduction);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).field_path == "loss.total");
  CHECK(*run.at(0).recomputed == 1.0);
  r["batch"]["reduction"] = "sum";
  CHECK(run_rule(r, rules::check_rule_18_batch_reduction).size() == 0);

  r["batch"]["sample_order"] = Json::array({"a", "b", "b"});
  CHECK(run_rule(r, rules::check_rule_19_sample_set).paths() == std::vector<std::string>{"batch.sample_order[2]"});
  r["batch"]["sample_order"] = Json::array({"a", "b", "d"});
  CHECK(run_rule(r, rules::check_rule_19_sample_set).paths() ==
        std::vector<std::string>{"loss.per_sample.d", "loss.per_sample.c", "per_sample.d", "per_sample.c"});
}
