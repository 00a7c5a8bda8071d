// fixtures/mlp/: real PyTorch and JAX runs (tests/support/mlp_fixtures.py, jax_mlp_fixtures.py)
// and their damaged copies, each named for its mutation with a .meta.json naming the rule that
// must fail first. Needs no torch and no JAX.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlp_audit/verify.hpp"
#include "support/suite_paths.hpp"

namespace {

namespace fs = std::filesystem;

fs::path dir() { return fs::path(suite_test::source_dir()) / "fixtures" / "mlp"; }

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

mlp_audit::StreamVerifier run(const std::vector<std::string>& lines) {
  mlp_audit::StreamVerifier v("fixture");
  for (std::size_t i = 0; i < lines.size(); ++i) REQUIRE(v.add(lines[i], static_cast<std::int64_t>(i + 1)).ok());
  return v;
}

// The reader's error for the first line of `file` after each edit (its first occurrence replaced).
std::string error_after(const char* file, std::initializer_list<std::pair<std::string, std::string>> edits) {
  std::string line = lines_of(dir() / file)[0];
  for (const auto& [from, to] : edits) {
    const std::size_t at = line.find(from);
    REQUIRE(at != std::string::npos);
    line.replace(at, from.size(), to);
  }
  mlp_audit::StreamVerifier v("r.jsonl");
  const common::Status s = v.add(line, 1);
  REQUIRE(!s.ok());
  return s.error().to_string();
}

}  // namespace

TEST_CASE("mlp_audit: the real run passes every rule") {
  const mlp_audit::StreamVerifier v = run(lines_of(dir() / "relu-adam-clip.jsonl"));
  CHECK(v.receipts() == 3);
  CHECK(v.failure_count() == 0);
  for (unsigned rule = 1; rule <= 7; ++rule) CHECK(v.tally()[rule].checked > 0);
}

TEST_CASE("mlp_audit: real runs of LayerNorm, GELU, Dropout (PyTorch and JAX) and the later losses pass every rule they reach") {
  for (const char* name : {"norm-gelu-dropout-sgd.jsonl", "gelu-tanh-bce-adam.jsonl", "plain-norm-half-adamw.jsonl",
                           "linear-lr-bce-pos-weight.jsonl", "jax-norm-dropout-momentum.jsonl"}) {
    CAPTURE(name);
    const mlp_audit::StreamVerifier v = run(lines_of(dir() / name));
    CHECK(v.receipts() >= 3);
    CHECK(v.failure_count() == 0);
    for (unsigned rule = 1; rule <= 6; ++rule) CHECK(v.tally()[rule].checked > 0);
  }
}

TEST_CASE("mlp_audit: each damaged fixture fails its rule first") {
  std::size_t seen = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir())) {
    const std::string name = e.path().filename().string();
    if (name.find(".bad-") == std::string::npos || e.path().extension() != ".jsonl") continue;
    CAPTURE(name);
    std::ifstream meta(e.path().parent_path() / (e.path().stem().string() + ".meta.json"));
    REQUIRE(meta);
    const nlohmann::json m = nlohmann::json::parse(meta);
    const mlp_audit::StreamVerifier v = run(lines_of(e.path()));
    REQUIRE(v.failure_count() > 0);
    CHECK(v.failures().front().rule == m.at("rule").get<unsigned>());
    ++seen;
  }
  CHECK(seen == 12);
}

TEST_CASE("mlp_audit: a failure names step, tensor, entry, stored, recomputed and bound") {
  const mlp_audit::StreamVerifier v = run(lines_of(dir() / "relu-adam-clip.bad-gradient.jsonl"));
  REQUIRE(v.failure_count() > 0);
  const mlp_audit::Failure& f = v.failures().front();
  CHECK(f.step == 1);
  CHECK(f.line == 2);
  CHECK(f.tensor == "grad.layers.1.weight");
  CHECK(f.index.has_value());
  CHECK(!f.stored.empty());
  CHECK(!f.recomputed.empty());
  CHECK(!f.bound.empty());
}

TEST_CASE("mlp_audit: a malformed receipt is an error naming the line and JSON path") {
  auto error_for = [](const std::string& from, const std::string& to) { return error_after("relu-adam-clip.jsonl", {{from, to}}); };
  CHECK(error_for("\"dtype\":\"f32\"", "\"dtype\":\"f16\"").find("r.jsonl:1: /batch/tensors/0/dtype") != std::string::npos);
  CHECK(error_for("\"activation\":\"relu\"", "\"activation\":\"elu\"").find("/model/layers/0/activation") != std::string::npos);
  CHECK(error_for("\"kind\":\"adam\"", "\"kind\":\"rmsprop\"").find("/model/optimizer/kind") != std::string::npos);
  CHECK(error_for("\"batch\":8", "\"batch\":7").find("/batch/tensors/0/shape") != std::string::npos);
  CHECK(error_for("{\"n\":0,", "{\"n\":0,\"extra\":1,").find("/step") != std::string::npos);
  CHECK(error_for("\"activation\":\"relu\"", "\"activation\":\"relu\",\"layer_norm\":{\"eps\":1e-5}")
            .find("/model/layers/0/layer_norm") != std::string::npos);
  // An affine LayerNorm adds layers.0.norm.weight and .bias after layers.0.bias: 12 tensors before the step become 18.
  CHECK(error_for("\"activation\":\"relu\"", "\"activation\":\"relu\",\"layer_norm\":{\"eps\":1e-5,\"elementwise_affine\":true}")
            .find("/before/tensors: holds 12 tensors; expected 18") != std::string::npos);
  // torch's LayerNorm in a jax receipt is refused (GELU is not: JAX's is audited).
  const std::string sgd = "{\"kind\":\"sgd\",\"lr\":0.1,\"weight_decay\":0.0,\"momentum\":0.9,\"dampening\":0.0,\"nesterov\":false}";
  CHECK(error_after("norm-gelu-dropout-sgd.jsonl", {{"\"name\":\"pytorch\"", "\"name\":\"jax\""},
                                                    {sgd, "{\"kind\":\"jax_momentum\",\"lr\":0.1,\"mass\":0.9}"}})
            .find("/model/layers/0/layer_norm: in a jax receipt must be jax_mlp.LayerNorm's") != std::string::npos);
  // SiLU and both GELUs in a jax receipt are read (JAX's formulas: jax_activation.cpp); this one then
  // fails past the model, at torch's optimizer state names.
  const std::string adam = "{\"kind\":\"adam\",\"lr\":0.01,\"weight_decay\":0.0,\"beta1\":0.9,\"beta2\":0.999,\"eps\":1e-08,\"amsgrad\":false}";
  for (const std::string act : {"silu", "gelu", "gelu_tanh"}) {
    CAPTURE(act);
    CHECK(error_after("relu-adam-clip.jsonl", {{"\"name\":\"pytorch\"", "\"name\":\"jax\""},
                                               {adam, "{\"kind\":\"jax_adam\",\"lr\":0.01,\"beta1\":0.9,\"beta2\":0.999,\"eps\":1e-08}"},
                                               {"\"activation\":\"relu\"", "\"activation\":\"" + act + "\""}})
              .find("/before/tensors/4/name: is \"exp_avg.layers.0.weight\"") != std::string::npos);
  }
  // CrossEntropyLoss's options: fp32 class weights, one per class; both for cross_entropy only.
  const std::string ce = "\"reduction\":\"mean\"";
  CHECK(error_for(ce, ce + ",\"weight\":[1,0.1,2]").find("/model/loss/weight/1: is not an fp32 value") != std::string::npos);
  CHECK(error_for(ce, ce + ",\"weight\":[1,2]").find("/model/loss/weight") != std::string::npos);
  CHECK(error_for(ce, ce + ",\"label_smoothing\":1.5").find("/model/loss/label_smoothing: is out of range [0, 1]") != std::string::npos);
  // A range's bounds are written as JavaScript writes numbers, never by printf ("1000000.000000").
  CHECK(error_for("\"lr\":0.01,\"loss\"", "\"lr\":-1,\"loss\"").find("/step/lr: is out of range [0, 1000000]") != std::string::npos);
  CHECK(error_for("\"kind\":\"cross_entropy\",\"reduction\":\"mean\"", "\"kind\":\"mse\",\"reduction\":\"mean\",\"label_smoothing\":0.1")
            .find("/model/loss/label_smoothing: is for cross_entropy only") != std::string::npos);
  CHECK(error_for(ce, ce + ",\"pos_weight\":[1,1,1]").find("/model/loss/pos_weight: is for bce_with_logits only") != std::string::npos);
  // A scheduler and the step's last_epoch come together.
  CHECK(error_for("\"lr\":0.01,\"loss\"", "\"lr\":0.01,\"last_epoch\":0,\"loss\"")
            .find("/step/last_epoch: is present exactly when the model has a scheduler") != std::string::npos);
  const char* sched = "linear-lr-bce-pos-weight.jsonl";
  CHECK(error_after(sched, {{"\"last_epoch\":0,", ""}}).find("/step/last_epoch: is present exactly") != std::string::npos);
  CHECK(error_after(sched, {{"\"kind\":\"linear\"", "\"kind\":\"one_cycle\""}}).find("/model/scheduler/kind: is \"one_cycle\"; supported") !=
        std::string::npos);
  CHECK(error_after(sched, {{"\"total_iters\":2", "\"total_iters\":-2"}}).find("/model/scheduler/total_iters") != std::string::npos);
  CHECK(error_after(sched, {{"\"pos_weight\":[0.5,2.0,3.0]", "\"pos_weight\":[0.5,2.0]"}}).find("/model/loss/pos_weight: must hold one") !=
        std::string::npos);
}

TEST_CASE("mlp_audit: each trainer's LayerNorm and Dropout conventions; another's is malformed") {
  const char* run = "norm-gelu-dropout-sgd.jsonl";
  const std::string affine = "\"elementwise_affine\":true", two_pass = affine + ",\"variance\":\"two_pass\"";
  CHECK(error_after(run, {{affine, two_pass}}).find("/model/layers/0/layer_norm: has variance \"two_pass\"") != std::string::npos);
  CHECK(error_after(run, {{"\"dropout\":", "\"dropout_keep\":"}}).find("/model/layers/0/dropout_keep: is stax.Dropout's") !=
        std::string::npos);
  CHECK(error_after(run, {{"\"dropout\":0.25", "\"dropout\":0.25,\"dropout_keep\":0.75"}}).find("/model/layers/0/dropout_keep: and dropout") !=
        std::string::npos);
  CHECK(error_after(run, {{affine, affine + ",\"variance\":\"welford\""}}).find("/model/layers/0/layer_norm/variance") != std::string::npos);
  // As a jax receipt (GELU made tanh): torch's LayerNorm is refused, then torch's Dropout.
  const std::string sgd = "{\"kind\":\"sgd\",\"lr\":0.1,\"weight_decay\":0.0,\"momentum\":0.9,\"dampening\":0.0,\"nesterov\":false}";
  const std::pair<std::string, std::string> jax{"\"name\":\"pytorch\"", "\"name\":\"jax\""}, tanh{"\"gelu\"", "\"tanh\""},
      mom{sgd, "{\"kind\":\"jax_momentum\",\"lr\":0.1,\"mass\":0.9}"}, smooth{",\"label_smoothing\":0.1,\"weight\":[0.5,1.0,2.0]", ""};
  CHECK(error_after(run, {jax, tanh, mom, smooth}).find("/model/layers/0/layer_norm: in a jax receipt must be jax_mlp.LayerNorm's") !=
        std::string::npos);
  CHECK(error_after(run, {jax, tanh, mom, smooth, {affine, two_pass}}).find("/model/layers/0/dropout: is nn.Dropout's p") !=
        std::string::npos);
}

TEST_CASE("mlp_audit: a jax receipt's losses are the JAX writer's; ignore_index is refused") {
  const char* run = "jax-norm-dropout-momentum.jsonl";
  const std::string ce = "\"loss\":{\"kind\":\"cross_entropy\",\"reduction\":\"mean\"";
  CHECK(error_after(run, {{ce, ce + ",\"ignore_index\":-100"}}).find("/model/loss/ignore_index: is PyTorch-only") !=
        std::string::npos);
  // What jax_mlp.py writes is read: the smoothed, weighted loss then fails rule 3 against the
  // recorded one; half_squared_error and bce_with_logits are refused for the targets (class
  // indices), not for the loss.
  const std::string first = lines_of(dir() / run)[0];
  std::string line = first;
  line.replace(line.find(ce), ce.size(), ce + ",\"label_smoothing\":0.1,\"weight\":[0.5,1.25,2.0999999046325684]");
  mlp_audit::StreamVerifier v("r.jsonl");
  CHECK(v.add(line, 1).ok());
  CHECK(v.failure_count() > 0);
  for (const char* loss : {"\"loss\":{\"kind\":\"half_squared_error\",\"reduction\":\"sum\"",
                           "\"loss\":{\"kind\":\"bce_with_logits\",\"reduction\":\"mean\",\"pos_weight\":[1.0,2.0,3.0]"}) {
    line = first;
    line.replace(line.find(ce), ce.size(), loss);
    mlp_audit::StreamVerifier other("r.jsonl");
    const common::Status s = other.add(line, 1);
    REQUIRE(!s.ok());
    CHECK(s.error().to_string().find("/model/loss") == std::string::npos);
    CHECK(s.error().to_string().find("target") != std::string::npos);
  }
}
