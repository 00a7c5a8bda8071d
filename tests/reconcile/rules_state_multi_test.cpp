// Cross-record rules 9, 10, 17, 25, 26 on small bundles, and the bounded-state contract: a bundle
// of 100,000 records keeps the same amount of state as one of 1,000, and failures stay capped.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "common/sha256.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/rules/attest_digest.hpp"
#include "rules_state_support.hpp"

using rules_state_test::Json;
using rules_state_test::run_cross;
namespace rules = reconcile::rules;

namespace {

std::vector<Json> xor_bundle() { return rules_state_test::load_jsonl("fixtures/xor.multi-step.jsonl"); }

// A small Adam record k of a generated bundle: parameters and moments chain from record k - 1.
Json adam_step(std::size_t k, const char* trace = "t-0") {
  const double p = 1.0 + static_cast<double>(k);
  Json r = Json::parse(R"({"numeric_policy":{"tolerance":{"atol":1e-12,"rtol":1e-9}},
      "optimizer_config":{"name":"adam","learning_rate":0.01,"beta1":0.9,"beta2":0.999,"epsilon":1e-8},
      "updates":[{"parameter_id":"w","optimizer":{"name":"adam"}}]})");
  r["trace_id"] = trace;
  r["step_index"] = k;
  r["optimizer_config"]["t"] = k + 1;
  r["parameters_before"] = Json{{"w", p}, {"b", 0.5}};
  r["parameters_after"] = Json{{"w", p + 1}, {"b", 0.5}};
  r["updates"][0]["optimizer"]["state_before"] = Json{{"m", p}, {"v", p}};
  r["updates"][0]["optimizer"]["state_after"] = Json{{"m", p + 1}, {"v", p + 1}};
  return r;
}

std::vector<Json> adam_bundle(std::size_t n) {
  std::vector<Json> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back(adam_step(k));
  return out;
}

}  // namespace

TEST_CASE("rule 9: parameters chain from the previous record's parameters_after") {
  auto bundle = xor_bundle();
  REQUIRE(bundle.size() == 2);
  auto rule = rules::make_rule_09_parameter_chain();
  CHECK(run_cross(*rule, bundle).size() == 0);
  auto& before = bundle[1]["parameters_before"]["w_x1_h1"];
  before = before.get<double>() + 1e-6;
  rule = rules::make_rule_09_parameter_chain();
  const auto run = run_cross(*rule, bundle);
  REQUIRE(run.size() == 1);
  CHECK(run.at(0).rule == 9);
  CHECK(run.at(0).field_path == "parameters_before.w_x1_h1");  // as the reference prints it
  CHECK(run.at(0).parameter_id == std::optional<std::string>("w_x1_h1"));
  CHECK(*run.at(0).delta == doctest::Approx(1e-6));

  // An id the prior record's parameters_after does not hold is not chained, whatever its
  // neighbours in that record hold; nor is anything when that parameters_after is an array.
  auto renamed = xor_bundle();
  const double value = renamed[1]["parameters_before"]["w_x1_h1"].get<double>();
  renamed[1]["parameters_before"].erase("w_x1_h1");
  renamed[1]["parameters_before"]["w_x1_h1_renamed"] = value + 1.0;
  renamed[1]["parameters_before"]["a_first"] = value + 1.0;
  renamed[1]["parameters_before"]["zz_last"] = value + 1.0;
  rule = rules::make_rule_09_parameter_chain();
  CHECK(run_cross(*rule, renamed).size() == 0);
  auto listed = bundle;
  listed[0]["parameters_after"] = Json::array({1.0, 2.0});
  rule = rules::make_rule_09_parameter_chain();
  CHECK(run_cross(*rule, listed).size() == 0);
}

TEST_CASE("rule 10: one trace id, step_index 0, 1, 2, ...") {
  auto bundle = adam_bundle(4);
  auto rule = rules::make_rule_10_trace_identity();
  CHECK(run_cross(*rule, bundle).size() == 0);
  bundle[2]["trace_id"] = "other";
  bundle[3]["step_index"] = 5;
  rule = rules::make_rule_10_trace_identity();
  CHECK(run_cross(*rule, bundle).paths() == std::vector<std::string>{"receipts[2].trace_id", "receipts[3].step_index"});
  // Dropping a record leaves a gap; a first record without trace_id exempts the bundle.
  bundle = adam_bundle(3);
  bundle.erase(bundle.begin());
  rule = rules::make_rule_10_trace_identity();
  CHECK(run_cross(*rule, bundle).paths() == std::vector<std::string>{"receipts[0].step_index", "receipts[1].step_index"});
  bundle[0].erase("trace_id");
  rule = rules::make_rule_10_trace_identity();
  CHECK(run_cross(*rule, bundle).size() == 0);
}

TEST_CASE("rule 17: the bundle digest binds every record, streamed") {
  auto bundle = xor_bundle();
  for (auto& r : bundle) {
    r["attestor"] = Json::parse(R"({"computed_by":{"kind":"engine","identity":"bp"},
                                    "verified_by":{"kind":"engine","identity":"bp"},
                                    "differential_tolerance":{"atol":0.000001,"rtol":0.0001}})");
  }
  common::Sha256 hash;
  for (const auto& r : bundle) {
    const auto bytes = rules::canonical_bytes(r);
    REQUIRE(bytes.ok);
    hash.update(bytes.text);
  }
  const std::string digest = "sha256:" + common::to_hex(hash.finish());
  for (auto& r : bundle) r["attestor"]["bundle_root_digest"] = digest;
  auto rule = rules::make_rule_17_bundle_binding();
  CHECK(run_cross(*rule, bundle).size() == 0);

  auto swapped = std::vector<Json>{bundle[1], bundle[0]};
  rule = rules::make_rule_17_bundle_binding();
  CHECK(run_cross(*rule, swapped).paths() == std::vector<std::string>{"receipts[*].attestor.bundle_root_digest"});

  auto partial = bundle;
  partial[1]["attestor"].erase("bundle_root_digest");
  rule = rules::make_rule_17_bundle_binding();
  CHECK(run_cross(*rule, partial).paths() == std::vector<std::string>{"receipts[1].attestor.bundle_root_digest"});

  auto mismatch = bundle;
  mismatch[1]["attestor"]["bundle_root_digest"] = "sha256:" + std::string(64, '0');
  rule = rules::make_rule_17_bundle_binding();
  CHECK(run_cross(*rule, mismatch).paths() == std::vector<std::string>{"receipts[1].attestor.bundle_root_digest"});

  auto malformed = bundle;
  for (auto& r : malformed) r["attestor"]["bundle_root_digest"] = "sha256:nothex";
  rule = rules::make_rule_17_bundle_binding();
  CHECK(run_cross(*rule, malformed).paths() == std::vector<std::string>{"receipts[0].attestor.bundle_root_digest"});

  rule = rules::make_rule_17_bundle_binding();  // gated off without any digest
  CHECK(run_cross(*rule, xor_bundle()).size() == 0);
}

TEST_CASE("rule 25: optimizer state and timestep chain") {
  auto bundle = adam_bundle(3);
  auto rule = rules::make_rule_25_optimizer_state_chain();
  CHECK(run_cross(*rule, bundle).size() == 0);
  bundle[2]["updates"][0]["optimizer"]["state_before"]["v"] = 0.0;  // stale moment
  bundle[2]["optimizer_config"]["t"] = 5;
  rule = rules::make_rule_25_optimizer_state_chain();
  CHECK(run_cross(*rule, bundle).paths() ==
        std::vector<std::string>{"receipts[2].updates[0].optimizer.state_before.v", "receipts[2].optimizer_config.t"});
  bundle = adam_bundle(2);
  bundle[1]["updates"][0]["parameter_id"] = "ghost";
  rule = rules::make_rule_25_optimizer_state_chain();
  CHECK(run_cross(*rule, bundle).paths() == std::vector<std::string>{"receipts[1].updates[0].optimizer.state_before"});
}

TEST_CASE("rule 26: hyperparameters stay constant, learning rate and t may change") {
  auto bundle = adam_bundle(3);
  bundle[1]["optimizer_config"]["learning_rate"] = 0.5;
  auto rule = rules::make_rule_26_optimizer_config_constancy();
  CHECK(run_cross(*rule, bundle).size() == 0);
  bundle[1]["optimizer_config"]["beta1"] = 0.8;
  bundle[2]["optimizer_config"]["name"] = "adamw";
  rule = rules::make_rule_26_optimizer_config_constancy();
  CHECK(run_cross(*rule, bundle).paths() ==
        std::vector<std::string>{"receipts[1].optimizer_config.beta1", "receipts[2].optimizer_config.name"});
  // A record without optimizer_config is the one finding, even after other findings.
  bundle.push_back(adam_step(3));
  bundle[3].erase("optimizer_config");
  rule = rules::make_rule_26_optimizer_config_constancy();
  CHECK(run_cross(*rule, bundle).paths() == std::vector<std::string>{"receipts[3].optimizer_config"});
}

TEST_CASE("cross-record rules: state does not grow with the number of records; failures stay capped") {
  std::vector<std::unique_ptr<rules::CrossRecordRule>> all;
  all.push_back(rules::make_rule_09_parameter_chain());
  all.push_back(rules::make_rule_10_trace_identity());
  all.push_back(rules::make_rule_17_bundle_binding());
  all.push_back(rules::make_rule_25_optimizer_state_chain());
  all.push_back(rules::make_rule_26_optimizer_config_constancy());
  // A healthy bundle: state after 1,000 records equals state after 100,000.
  std::vector<std::size_t> at_1k;
  for (std::size_t k = 0; k < 100'000; ++k) {
    Json r = adam_step(k);
    r["attestor"] = Json{{"bundle_root_digest", "sha256:" + std::string(64, 'a')}};
    const reconcile::ReadReceipt read(r);
    for (auto& rule : all) rule->observe(k, read);
    if (k + 1 == 1'000) {
      for (auto& rule : all) at_1k.push_back(rule->retained_state());
    }
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    CAPTURE(i);
    CHECK(all[i]->retained_state() == at_1k[i]);
    CHECK(all[i]->retained_state() < 64);
  }
  reconcile::Result healthy;
  reconcile::FailureSink sink(healthy);
  for (auto& rule : all) rule->finish(sink);
  CHECK(healthy.failures.size() == 1);  // the made-up bundle digest does not match
  CHECK(healthy.failures[0].rule == 17);

  // A bundle where every record breaks rules 9, 10, 25 and 26: each keeps at most kMaxFailures.
  all.clear();
  all.push_back(rules::make_rule_09_parameter_chain());
  all.push_back(rules::make_rule_10_trace_identity());
  all.push_back(rules::make_rule_25_optimizer_state_chain());
  all.push_back(rules::make_rule_26_optimizer_config_constancy());
  for (std::size_t k = 0; k < 100'000; ++k) {
    Json r = adam_step(k, k == 0 ? "t-0" : "t-x");
    r["step_index"] = k + 7;
    r["parameters_before"]["w"] = -1.0;
    r["updates"][0]["optimizer"]["state_before"]["m"] = -1.0;
    if (k > 0) r["optimizer_config"]["beta1"] = 0.5;
    const reconcile::ReadReceipt read(r);
    for (auto& rule : all) rule->observe(k, read);
  }
  for (auto& rule : all) CHECK(rule->retained_state() <= reconcile::kMaxFailures + 64);
  reconcile::Result broken;
  reconcile::FailureSink broken_sink(broken);
  for (auto& rule : all) rule->finish(broken_sink);
  CHECK(broken.failures.size() == reconcile::kMaxFailures);
  CHECK(broken.failures_dropped > 0);
  CHECK(broken.failures.size() + broken.failures_dropped >= 4 * 99'999);
}

TEST_CASE("MultiStepReconciler: a 100,000-record bundle keeps its failures capped") {
  reconcile::MultiStepReconciler multi;
  std::size_t per_record_failures = 0;
  for (std::size_t k = 0; k < 100'000; ++k) {
    Json r = adam_step(k);
    r["parameters_before"]["w"] = -1.0;  // breaks the chain at every step
    per_record_failures += multi.add(r).failures.size();
  }
  CHECK(multi.records_seen() == 100'000);
  const auto result = multi.finish();
  CHECK_FALSE(result.ok);
  CHECK(result.failures.size() <= reconcile::kMaxFailures);
  CHECK(result.failures.size() + result.failures_dropped >= 99'999);
  (void)per_record_failures;
}

namespace rules_state_multi_test {

// Every cross-record finding, its path and message, in order, and the coverage.
std::string findings(const reconcile::Result& r) {
  std::string out;
  for (const auto& f : r.failures) {
    out += std::to_string(f.rule) + " " + f.field_path + " " + f.message.value_or("") + " " +
           std::to_string(f.stored.value_or(-7)) + " " + std::to_string(f.recomputed.value_or(-7)) + "\n";
  }
  for (int rule : r.rules_evaluated) out += "evaluated " + std::to_string(rule) + "\n";
  return out + "dropped " + std::to_string(r.failures_dropped);
}

}  // namespace rules_state_multi_test

TEST_CASE("MultiStepReconciler: facts taken on other threads, the trees gone, fold to the trees' findings") {
  // Records that break every cross-record rule somewhere, each record's damage different.
  std::vector<Json> records = adam_bundle(12);
  const std::string digest = "sha256:" + std::string(64, 'b');
  for (auto& r : records) r["attestor"] = Json{{"bundle_root_digest", digest}};
  records[2]["parameters_before"]["w"] = -1.0;                          // rule 9
  records[3]["step_index"] = 9;                                         // rule 10
  records[4]["trace_id"] = "t-other";                                   // rule 10
  records[5]["updates"][0]["optimizer"]["state_before"]["v"] = -2.0;    // rule 25
  records[6]["optimizer_config"]["t"] = 40;                             // rule 25
  records[7]["optimizer_config"]["beta2"] = 0.5;                        // rule 26
  records[8]["attestor"]["bundle_root_digest"] = "sha256:" + std::string(64, 'c');  // rule 17
  records[9]["step_index"] = "9";                                       // rule 10, a string
  records[10]["parameters_before"] = Json::array({1, 2});               // no ids to chain
  reconcile::MultiStepReconciler from_trees;
  for (const auto& r : records) (void)from_trees.add(r);
  const std::string want = rules_state_multi_test::findings(from_trees.finish());
  // Appended piece by piece: a literal + a temporary draws GCC 12's false -Wrestrict at -O3.
  std::string lines = "\n";
  lines += want;
  for (int rule : {9, 10, 17, 25, 26}) {
    std::string start = "\n";
    start += std::to_string(rule);
    start += ' ';
    CHECK_MESSAGE(lines.find(start) != std::string::npos, want);
  }

  std::vector<reconcile::RecordFacts> facts(records.size());
  std::vector<reconcile::Result> own(records.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < records.size(); i += 3) {
        own[i] = reconcile::reconcile_receipt(records[i]);
        facts[i] = reconcile::record_facts(records[i]);
      }
    });
  }
  for (auto& t : threads) t.join();
  records.clear();  // the fold reads the facts alone
  reconcile::MultiStepReconciler from_facts;
  for (std::size_t i = 0; i < facts.size(); ++i) (void)from_facts.add(facts[i], std::move(own[i]));
  CHECK(rules_state_multi_test::findings(from_facts.finish()) == want);
}
