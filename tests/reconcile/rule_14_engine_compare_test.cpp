// Rule 14 compares a receipt with the engine's GeneralReceipt struct; the JSON-tree form it replaced
// (rule_14_differential_tree.cpp, over to_json of the same struct) is the oracle. Over the engine
// goldens, the multi-step xor records, stateful optimizers, a batch, ids that sort as array
// indices (and a unit named "status"), and many mutations of each (numbers moved, made infinite or
// replaced, keys dropped, added or swapped, factors renamed, updates null), both forms must report
// the same failures field for field (numbers in hex) and throw the same text.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "receipt/engine/receipt_json.hpp"
#include "reconcile/rules/rule_14_engine_compare.hpp"
#include "reconcile/rules/rule_14_findings.hpp"
#include "read_tree.hpp"
#include "reconcile/rules/rule_14_engine_input.hpp"
#include "rule_14_differential_tree.hpp"
#include "rule_14_records.hpp"
#include "rules_state_support.hpp"

using Json = reconcile::Tree;
using receipt::engine::GeneralReceipt;

namespace rule14_compare_test {  // named: the unity batch holds other tests' helpers

std::string hex(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", *v);
  return buf;
}

// Every field of a failure, numbers in hex.
std::string describe(const reconcile::Failure& f) {
  std::string s = std::to_string(f.rule) + " | " + f.parameter_id.value_or("-") + " | " + f.field_path + " | " +
                  hex(f.stored) + " | " + hex(f.recomputed) + " | " + hex(f.delta) + " | " + hex(f.tolerance) + " | " +
                  f.product_order.value_or("-") + " | " +
                  (f.cascade_of_rule ? std::to_string(*f.cascade_of_rule) : "-") + " | " + f.message.value_or("-");
  for (const auto& factor : f.factors) s += " | " + factor.name + "/" + factor.from.value_or("-") + "/" + hex(factor.value);
  return s;
}

using Form = std::function<void(const Json&, const GeneralReceipt&, reconcile::Tolerance, reconcile::FailureSink&)>;

std::vector<std::string> report(const Form& form, const Json& r, const GeneralReceipt& engine, reconcile::Tolerance tol) {
  reconcile::Result result;
  reconcile::FailureSink sink(result);
  std::string thrown;
  try {
    form(r, engine, tol, sink);
  } catch (const std::runtime_error& e) {
    thrown = std::string("threw: ") + e.what();
  }
  std::vector<std::string> out;
  for (const auto& f : result.failures) out.push_back(describe(f));
  out.push_back("dropped " + std::to_string(result.failures_dropped));
  if (!thrown.empty()) out.push_back(thrown);
  return out;
}

const Form kStruct = [](const Json& r, const GeneralReceipt& e, reconcile::Tolerance t, reconcile::FailureSink& out) {
  reconcile::rules::compare_with_engine(reconcile_test::Read(r), e, t, out);
};
const Form kTree = [](const Json& r, const GeneralReceipt& e, reconcile::Tolerance t, reconcile::FailureSink& out) {
  rule14_tree::compare_with_engine_tree(r, receipt::engine::to_json(e), t, out);
};

bool batched(const Json& r) {
  const auto truthy = [&](const char* k) { return r.contains(k) && !r[k].is_null(); };
  return truthy("batch") && truthy("per_sample");
}

using rule14_records::with_optimizer;
using rule14_records::xor_golden;

Json with_batch(Json r, const char* order) {
  r["batch"] = Json::parse(order);
  Json samples = Json::object();
  const double xs[][3] = {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
  std::size_t i = 0;
  for (const auto& id : r["batch"]["sample_order"]) {
    const auto& x = xs[i++ % 4];
    samples[id.get<std::string>()] = Json{{"inputs", {{"x1", x[0]}, {"x2", x[1]}}}, {"targets", {{"y", x[2]}}}};
  }
  r["per_sample"] = std::move(samples);
  return r;
}

// xor with its units renamed (whole words only): "status" and "units", the words post_update_forward
// reserves (unit ids are identifiers, so none sorts as an array index; sample ids may).
Json renamed(const std::vector<std::pair<const char*, const char*>>& names) {
  std::string text = xor_golden().dump();
  for (const auto& [from, to] : names) text = std::regex_replace(text, std::regex(std::string("\\b") + from + "\\b"), to);
  return Json::parse(text);
}

// The records mutated below: as written (9 significant digits) and as the engine's own document.
std::vector<std::pair<std::string, Json>> bases() {
  std::vector<std::pair<std::string, Json>> raw;
  for (const char* file : {"fixtures/xor.golden.jsonl", "fixtures/iris.golden.jsonl", "fixtures/softmax-ce.golden.jsonl",
                           "fixtures/xor-per-neuron-bias.golden.jsonl", "fixtures/xor.multi-step.jsonl"}) {
    int n = 0;
    for (auto& r : rules_state_test::load_jsonl(file)) raw.emplace_back(std::string(file) + "#" + std::to_string(n++), r);
  }
  raw.emplace_back("adam", with_optimizer(Json::parse(R"({"name":"adam","learning_rate":0.5,"beta1":0.9,
                                                          "beta2":0.999,"epsilon":1e-8,"t":3})"),
                                          Json::parse(R"({"m":0.01,"v":0.0002})")));
  raw.emplace_back("adamw", with_optimizer(Json::parse(R"({"name":"adamw","learning_rate":0.5,"beta1":0.8,
                                                           "beta2":0.99,"epsilon":1e-6,"weight_decay":0.1,"t":1})"),
                                           Json::parse(R"({"m":-0.02,"v":0.0001})")));
  raw.emplace_back("sgd_momentum", with_optimizer(Json::parse(R"({"name":"sgd_momentum","learning_rate":0.5,
                                                                  "momentum":0.9,"nesterov":true})"),
                                                  Json::parse(R"({"buffer":0.25})")));
  raw.emplace_back("batch", with_batch(xor_golden(), R"({"size":3,"sample_order":["s","10","2"],"reduction":"mean"})"));
  raw.emplace_back("unit status", renamed({{"h2", "status"}, {"h1", "units"}}));
  // Only "status": post_update_forward's own key and a unit's (the unit's value is the one read).
  raw.emplace_back("unit status alone", renamed({{"h2", "status"}}));
  raw.emplace_back("batch index ids",
                   with_batch(renamed({{"h1", "units"}}), R"({"size":2,"sample_order":["9","1"],"reduction":"sum"})"));
  std::vector<std::pair<std::string, Json>> out;
  for (auto& [name, r] : raw) {
    auto engine = reconcile::rules::recompute_engine_receipt(reconcile_test::Read(r), batched(r));
    REQUIRE_MESSAGE(engine, name << ": " << (engine ? "" : engine.error().message()));
    Json own = receipt::engine::to_json(*engine);
    if (batched(r)) r = own;  // the hand-written batch claims nothing; the engine's document does
    out.emplace_back(name, std::move(r));
    out.emplace_back(name + " (engine document)", std::move(own));
  }
  return out;
}

constexpr const char* kClaims[] = {"forward", "loss", "backward", "updates", "parameters_after", "post_update_forward",
                                   "post_update_loss", "per_sample"};

// One random change at a node of a claimed section.
void mutate_node(Json& v, std::mt19937& rng, double rate, int depth) {
  std::uniform_real_distribution<double> coin(0, 1);
  if (v.is_object()) {
    std::vector<std::string> keys;
    for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(it.key());
    for (const auto& k : keys) {
      if (coin(rng) < rate) {
        switch (rng() % 6) {
          case 0: v.erase(k); continue;
          case 1: v[k] = nullptr; continue;
          case 2: v[k] = v[k].is_number() ? Json::object() : Json(0.5); continue;
          case 3: v[k] = "x"; continue;
          case 4: v[keys[rng() % keys.size()]].swap(v[k]); continue;
          default: v[rng() % 2 ? "zz" : "3"] = 1.25; break;
        }
      }
      if (v.contains(k)) mutate_node(v[k], rng, rate, depth + 1);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (coin(rng) < rate) {
        switch (rng() % 3) {
          case 0: v[i] = nullptr; continue;
          case 1: std::swap(v[i], v[rng() % v.size()]); break;
          default: v.erase(v.begin() + static_cast<std::ptrdiff_t>(i)); continue;
        }
      }
      mutate_node(v[i], rng, rate, depth + 1);
    }
  } else if (v.is_number() && coin(rng) < 4 * rate) {
    switch (rng() % 4) {
      case 0: v = v.get<double>() * (1 + 1e-3) + 1e-9; break;
      case 1: v = v.get<double>() + 1; break;
      case 2: v = (rng() % 2 ? 1 : -1) * std::numeric_limits<double>::infinity(); break;
      default: v = v.get<double>() * (1 + 1e-7); break;
    }
  } else if (v.is_string() && coin(rng) < rate) {
    v = v.get<std::string>() + "_";  // a factor or source unit named otherwise
  }
}

Json mutated(Json r, unsigned seed) {
  std::mt19937 rng(seed);
  const double rate = seed % 3 == 0 ? 0.02 : seed % 3 == 1 ? 0.08 : 0.25;
  for (const char* section : kClaims) {
    if (r.contains(section)) mutate_node(r[section], rng, rate, 0);
  }
  return r;
}

// Every claimed number moved by a relative 1e-3: a disagreement at each place the engine recomputes.
void shift_all(Json& v) {
  if (v.is_number()) v = v.get<double>() * (1 + 1e-3) + 1e-6;
  if (v.is_structured()) {
    for (auto& child : v) shift_all(child);
  }
}

}  // namespace rule14_compare_test

TEST_CASE("rule 14: the engine's struct and its JSON document report the same failures, field for field") {
  using namespace rule14_compare_test;
  std::size_t compared = 0, refused = 0, extended = 0, claims = 0, completeness = 0, non_finite = 0, threw = 0;
  for (const auto& [name, base] : bases()) {
    std::vector<std::pair<std::string, Json>> variants{{name, base}};
    Json all = base;
    for (const char* section : kClaims) {
      if (all.contains(section)) shift_all(all[section]);
    }
    variants.emplace_back(name + " all shifted", all);
    for (unsigned seed = 1; seed <= 24; ++seed) variants.emplace_back(name + " seed " + std::to_string(seed), mutated(base, seed));
    for (const auto& [vname, r] : variants) {
      auto engine = reconcile::rules::recompute_engine_receipt(reconcile_test::Read(r), batched(r));
      if (!engine) {
        ++refused;
        continue;
      }
      for (const reconcile::Tolerance tol : {reconcile::Tolerance{1e-6, 1e-4}, reconcile::Tolerance{0, 0}}) {
        CAPTURE(vname);
        CAPTURE(tol.atol);
        const auto want = report(kTree, r, *engine, tol);
        const auto got = report(kStruct, r, *engine, tol);
        ++compared;
        if (want != got) {
          std::size_t i = 0;
          while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
          FAIL_CHECK("first difference at failure " << i << "\n tree:   " << (i < want.size() ? want[i] : "(end)")
                                                    << "\n struct: " << (i < got.size() ? got[i] : "(end)"));
        }
        for (const auto& line : want) {
          extended += line.find("(extended) foreign claim") != std::string::npos;
          claims += line.find("differential): foreign claim") != std::string::npos;
          completeness += line.find("COMPLETENESS") != std::string::npos;
          non_finite += line.find("non-finite arithmetic") != std::string::npos;
          threw += line.rfind("threw: Cannot read properties of null", 0) == 0;
        }
      }
    }
  }
  MESSAGE("compared " << compared << " (engine refused " << refused << "): " << claims << " claims, " << extended
                      << " extended, " << completeness << " completeness, " << non_finite << " non-finite, " << threw
                      << " throws");
  // Each kind of finding occurs many times, so a form that drops or reorders one cannot pass.
  CHECK(compared > 600);
  CHECK(claims > 1000);
  CHECK(extended > 1000);
  CHECK(completeness > 200);
  CHECK(non_finite > 20);
  CHECK(threw > 5);
}

TEST_CASE("rule 14: a comparison path in pieces spells what concatenation spelled") {
  using reconcile::rules::rule14::PathPieces;
  using reconcile::rules::rule14::index_piece;
  std::string spill;
  const PathPieces update{"updates[", "w_h1_x1", "]"};
  const PathPieces factor = update.then({".optimizer", ".factors", index_piece(1, spill)}).then({".", "value"});
  CHECK(factor.str() == "updates[w_h1_x1].optimizer.factors[1].value");
  CHECK(update.str() == "updates[w_h1_x1]");  // then() leaves its path as it was
  CHECK(PathPieces{}.str().empty());
  CHECK(index_piece(0, spill) == "[0]");
  CHECK(index_piece(255, spill) == "[255]");
  CHECK(spill.empty());  // small indices are static texts
  CHECK(index_piece(256, spill) == "[256]");
  CHECK(index_piece(18446744073709551615u, spill) == "[18446744073709551615]");
  const PathPieces full{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  CHECK(full.str() == "abcdefghij");
  CHECK_THROWS_AS((void)full.then({"k"}), std::length_error);
}
