// The typed writer (GeneralReceipt -> bytes) against the document emitter (to_json -> layouts ->
// bytes): two independent spellings of the same receipt must agree byte for byte, on every shape the
// engine makes, and on errors.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>

#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "receipt/engine/multi_step.hpp"
#include "receipt/engine/receipt_json.hpp"

using namespace receipt::engine;
using receipt::topology::Activation;
using receipt::topology::BiasSharing;
using receipt::topology::Loss;

namespace {

common::Result<GeneralReceipt> compute(const GeneralInput& in) {
  auto shared = std::make_shared<const GeneralInput>(in);
  return in.batch ? compute_batched_general_step(shared) : compute_general_step(shared);
}

// Both paths; returns false when the engine refused the input.
// The labels line (emit_receipt_labels) is the line but for its numbers: the same keys in the same
// order, the same strings, booleans and shape, and each number 0 or, an integer field's, the same.
void check_labels(const nlohmann::ordered_json& line, const nlohmann::ordered_json& labels) {
  if (line.is_number()) {
    REQUIRE(labels.is_number());
    CHECK((labels.get<double>() == 0 || labels.get<double>() == line.get<double>()));
    return;
  }
  REQUIRE(line.type() == labels.type());
  if (line.is_object()) {
    REQUIRE(line.size() == labels.size());
    for (auto a = line.begin(), b = labels.begin(); a != line.end(); ++a, ++b) {
      CHECK(a.key() == b.key());
      check_labels(a.value(), b.value());
    }
  } else if (line.is_array()) {
    REQUIRE(line.size() == labels.size());
    for (std::size_t i = 0; i < line.size(); ++i) check_labels(line[i], labels[i]);
  } else {
    CHECK(line == labels);
  }
}

bool check_same_bytes(const GeneralInput& in) {
  auto r = compute(in);
  if (!r) return false;
  auto typed = receipt::emit::emit_receipt_line(*r);
  auto document = receipt::emit::emit_receipt_line(to_json(*r));
  REQUIRE_MESSAGE(document.ok(), (document.ok() ? "" : document.error().to_string()));
  REQUIRE_MESSAGE(typed.ok(), (typed.ok() ? "" : typed.error().to_string()));
  CHECK(*typed == *document);
  const auto labels = receipt::emit::emit_receipt_labels(*r);
  REQUIRE(labels.has_value());
  CHECK(labels->size() < typed->size());
  check_labels(nlohmann::ordered_json::parse(*typed), nlohmann::ordered_json::parse(*labels));
  return true;
}

std::string edge(const std::string& f, const std::string& t, std::size_t) { return "w_" + f + "_" + t; }

GeneralInput random_input(std::mt19937_64& rng) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  DenseNames names;
  const int n_in = 1 + pick(4), n_hid = 1 + pick(5), n_out = 1 + pick(4);
  // Ids that need escaping travel through both paths too.
  for (int i = 0; i < n_in; ++i) names.input.push_back(i == 0 ? "x\"0" : "x" + std::to_string(i));
  for (int i = 0; i < n_hid; ++i) names.hidden.push_back(i == 0 ? "h\xC3\xBC" : "h" + std::to_string(i));
  for (int i = 0; i < n_out; ++i) names.output.push_back("o" + std::to_string(i));
  const bool per_neuron = pick(2) == 1;
  GeneralInput in;
  auto& b = in.base;
  b.topology = dense_topology(names, per_neuron ? BiasSharing::per_neuron : BiasSharing::per_layer, edge, "bh", "bo");
  const Activation hidden[] = {Activation::sigmoid, Activation::identity, Activation::relu};
  b.topology.activation_hidden = hidden[pick(3)];
  const bool softmax = pick(3) == 0;
  if (softmax) {
    b.topology.activation_output = Activation::softmax;
    b.topology.loss = Loss::cross_entropy_softmax;
  } else {
    b.topology.activation_output = hidden[pick(3)];
  }
  b.learning_rate = 0.05 + 0.5 * std::uniform_real_distribution<double>(0, 1)(rng);
  const auto targets = [&] {
    std::vector<double> t(static_cast<std::size_t>(n_out), 0.0);
    if (softmax) {
      t[static_cast<std::size_t>(pick(n_out))] = 1.0;
    } else {
      for (auto& v : t) v = std::uniform_real_distribution<double>(0, 1)(rng);
    }
    return t;
  };
  const auto inputs = [&] {
    std::vector<double> x(static_cast<std::size_t>(n_in));
    for (auto& v : x) v = value(rng);
    return x;
  };
  b.inputs = inputs();
  b.targets = targets();
  for (std::size_t k = 0; k < b.topology.parameter_order.size(); ++k) b.parameters_before.push_back(value(rng) / 2);
  b.numeric_policy = numeric_policy(1e-12, 1e-8);
  b.bias_policy = per_neuron ? per_neuron_sgd_bias_policy() : constant_bias_policy_v03();
  if (pick(4) == 0) b.metadata = receipt::topology::Metadata{"random \\ source", "https://example.invalid/x", "descent_direction"};
  if (pick(3) == 0) {
    b.trace_id = "0123456789abcdef0123456789abcdef";
    b.step_index = pick(1000);
  }
  if (pick(4) == 0) {
    Batch batch;
    const int n = 1 + pick(4);
    for (int s = 0; s < n; ++s) batch.samples.push_back(Sample{"s" + std::to_string(s), inputs(), targets()});
    const Reduction reductions[] = {Reduction::mean, Reduction::sum, Reduction::none};
    batch.reduction = reductions[pick(3)];
    in.batch = std::move(batch);
    return in;
  }
  const std::size_t np = b.topology.parameter_order.size();
  switch (pick(6)) {
    case 0: break;  // plain SGD
    case 1: in.optimizer = OptimizerConfig{.name = OptimizerName::sgd, .learning_rate = b.learning_rate, .weight_decay = 0.01}; break;
    case 2:
      in.optimizer = OptimizerConfig{.name = OptimizerName::sgd_momentum, .learning_rate = b.learning_rate,
                                     .momentum = 0.9, .nesterov = pick(2) == 1, .dampening = pick(2) ? 0.1 : 0.0};
      break;
    case 3:
      in.optimizer = OptimizerConfig{.name = OptimizerName::sgd_momentum, .learning_rate = b.learning_rate,
                                     .weight_decay = 0.001, .momentum = 0.5};
      break;
    case 4:
      in.optimizer = OptimizerConfig{.name = OptimizerName::adam, .learning_rate = b.learning_rate, .beta1 = 0.9,
                                     .beta2 = 0.999, .epsilon = 1e-8, .t = 1 + pick(5)};
      break;
    default:
      in.optimizer = OptimizerConfig{.name = OptimizerName::adamw, .learning_rate = b.learning_rate, .beta1 = 0.9,
                                     .beta2 = 0.999, .epsilon = 1e-8, .t = 1 + pick(5), .weight_decay = 0.01};
      break;
  }
  if (in.optimizer && in.optimizer->name != OptimizerName::sgd) {
    std::vector<std::optional<OptimizerState>> st(np);
    for (std::size_t k = 0; k < np; ++k) {
      const auto& role = b.topology.parameters[k].role;
      const bool constant_bias = !per_neuron && (role == receipt::topology::Role::hidden_bias ||
                                                 role == receipt::topology::Role::output_bias);
      if (!constant_bias) st[k] = OptimizerState{0.01 * value(rng), 0.001 * (2.5 + value(rng)), 0.1 * value(rng)};
    }
    in.state_before = std::move(st);
  }
  return in;
}

}  // namespace

TEST_CASE("receipt writer: the builtin inputs give the document emitter's bytes") {
  for (const GeneralInput& in : {xor_input(), iris_input(), softmax_ce_input(), xor_per_neuron_bias_input(),
                                 mazur_general_input()}) {
    CHECK(check_same_bytes(in));
  }
}

TEST_CASE("receipt writer: 400 random configurations (sizes, activations, losses, optimizers, batches)") {
  std::mt19937_64 rng(20261122);
  int accepted = 0;
  int batched = 0;
  int stateful = 0;
  for (int i = 0; i < 400; ++i) {
    const GeneralInput in = random_input(rng);
    CAPTURE(i);
    if (check_same_bytes(in)) {
      ++accepted;
      batched += in.batch ? 1 : 0;
      stateful += in.optimizer && in.optimizer->name != OptimizerName::sgd ? 1 : 0;
    }
  }
  // Most draws are valid; the rest are refused by the engine, the same for both paths.
  CHECK(accepted >= 300);
  CHECK(batched >= 40);
  CHECK(stateful >= 100);
}

TEST_CASE("receipt writer: chained steps carry the full-precision state") {
  GeneralInput in = xor_input();
  in.optimizer = OptimizerConfig{.name = OptimizerName::adam, .learning_rate = 0.5, .beta1 = 0.9, .beta2 = 0.999,
                                 .epsilon = 1e-8, .t = 1};
  in.state_before = std::vector<std::optional<OptimizerState>>(in.base.topology.parameter_order.size(),
                                                               OptimizerState{});
  auto run = run_multi_step(in, 3, {"chain-", "", ""});
  REQUIRE(run.ok());
  for (const GeneralReceipt& r : *run) {
    CHECK(*receipt::emit::emit_receipt_line(r) == *receipt::emit::emit_receipt_line(to_json(r)));
  }
  CHECK((*run)[1].input->base.parameters_before == (*run)[0].parameters_after);
  CHECK((*run)[2].input->optimizer->t == 3);
}

TEST_CASE("receipt writer: a number outside the canonical range fails as the document emitter fails") {
  GeneralInput in = xor_input();
  in.base.parameters_before[0] = 3e7;  // parameters_before and everything downstream leave [1e-13, 1e7)
  auto r = compute(in);
  REQUIRE(r.ok());
  std::string out = "kept";
  auto typed = receipt::emit::append_receipt_line(out, *r);
  auto document = receipt::emit::emit_receipt_line(to_json(*r));
  REQUIRE_FALSE(typed.ok());
  REQUIRE_FALSE(document.ok());
  CHECK(typed.error().to_string() == document.error().to_string());
  CHECK(typed.error().where().json_path == "/parameters_before/w_x1_h1");
  CHECK(out == "kept");  // nothing appended on error
  CHECK_FALSE(receipt::emit::emit_receipt_labels(*r).has_value());

  std::vector<EngineReceipt> receipts;
  receipts.emplace_back(*compute(xor_input()));
  receipts.emplace_back(std::move(*r));
  auto all = receipt::emit::emit_receipts(receipts);
  REQUIRE_FALSE(all.ok());
  CHECK(all.error().message().starts_with("record 2: PLAIN_DECIMAL_OUT_OF_SCOPE"));
}

TEST_CASE("receipt writer: ids longer than the writer's chunk, appended after earlier text") {
  // A quoted id bigger than the writer's 4000-byte chunk goes around it; the bytes must not change.
  DenseNames names;
  names.input = {std::string(5000, 'x') + "\"", "x1"};
  names.hidden = {"h0", std::string(3999, 'h')};
  names.output = {"o0"};
  GeneralInput in = xor_input();
  in.base.topology = dense_topology(names, BiasSharing::per_layer, edge, "bh", "bo");
  in.base.parameters_before.assign(in.base.topology.parameter_order.size(), 0.25);
  in.base.inputs = {0.5, -0.5};
  in.base.targets = {0.75};
  auto r = compute(in);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  auto document = receipt::emit::emit_receipt_line(to_json(*r));
  REQUIRE(document.ok());
  CHECK(document->size() > 100000);
  std::string out = "earlier line\n";
  REQUIRE(receipt::emit::append_receipt_line(out, *r).ok());
  CHECK(out == "earlier line\n" + *document);
}

TEST_CASE("receipt writer: emits_exactly agrees with comparing emit_receipts' bytes") {
  // Two receipts (one over several of the writer's 4000-byte chunks) and one document receipt.
  std::vector<EngineReceipt> receipts;
  receipts.emplace_back(*compute(xor_input()));
  receipts.emplace_back(*compute(iris_input()));
  receipts.emplace_back(to_json(*compute(xor_input())));
  auto all = receipt::emit::emit_receipts(receipts);
  REQUIRE(all.ok());
  const std::string& bytes = *all;
  REQUIRE(bytes.size() > 12000);
  CHECK(receipt::emit::emits_exactly(receipts, bytes));
  // One byte changed anywhere, at and around the chunk boundaries included: not exactly.
  for (std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{3999}, std::size_t{4000}, std::size_t{4001},
                         bytes.size() / 2, bytes.size() - 2, bytes.size() - 1}) {
    CAPTURE(at);
    std::string changed = bytes;
    changed[at] = changed[at] == '0' ? '1' : '0';
    CHECK_FALSE(receipt::emit::emits_exactly(receipts, changed));
  }
  CHECK_FALSE(receipt::emit::emits_exactly(receipts, bytes.substr(0, bytes.size() - 1)));
  CHECK_FALSE(receipt::emit::emits_exactly(receipts, bytes + "\n"));
  CHECK_FALSE(receipt::emit::emits_exactly(receipts, ""));
  CHECK(receipt::emit::emits_exactly({}, ""));
  CHECK_FALSE(receipt::emit::emits_exactly({}, "\n"));
}

TEST_CASE("receipt writer: the labels line fails exactly where the line fails, at the canonical range's edges") {
  int failed = 0;
  for (const double v : {9999999.0, 9999999.4, 9999999.5, 9999999.96, 1e7, 1.0000001e-13, 1e-13, 9.9999999999999e-14,
                         9.99999999999999999e-14, 5e-14, -9999999.96, -1e-13, 0.0, -0.0}) {
    CAPTURE(v);
    GeneralInput in = xor_input();
    in.base.inputs[0] = v;  // written as given (inputs), and carried into the forward pass
    auto r = compute(in);
    if (!r) continue;
    const auto line = receipt::emit::emit_receipt_line(*r);
    CHECK(receipt::emit::emit_receipt_labels(*r).has_value() == line.ok());
    failed += line.ok() ? 0 : 1;
  }
  CHECK(failed >= 4);
}
