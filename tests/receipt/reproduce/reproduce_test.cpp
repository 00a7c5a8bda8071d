// Round trips through the canonical bytes: emit a generated receipt, parse it back (9-digit values),
// reproduce it, emit again: the bytes must not change.
#include <doctest/doctest.h>

#include <string>

#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/general_step.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/engine/multi_step.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "receipt/reproduce/reproduce.hpp"

using nlohmann::ordered_json;
using namespace receipt::engine;

namespace {

template <class Receipts>
std::string emit_all(const Receipts& receipts) {
  auto bytes = receipt::emit::emit_receipts(receipts);
  REQUIRE_MESSAGE(bytes.ok(), (bytes.ok() ? "" : bytes.error().to_string()));
  return *bytes;
}

std::vector<ordered_json> parse(const std::string& text) {
  auto recs = common::parse_jsonl_text(text);
  REQUIRE(recs.ok());
  std::vector<ordered_json> out;
  for (auto& r : *recs) out.push_back(std::move(r.value));
  return out;
}

template <class Receipts>
void check_round_trip(const Receipts& receipts) {
  const std::string bytes = emit_all(receipts);
  auto again = receipt::reproduce::reproduce(parse(bytes));
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().to_string()));
  CHECK(emit_all(*again) == bytes);
}

}  // namespace

TEST_CASE("reproduce: every builtin regenerates from its own canonical bytes") {
  for (const auto name : builtin_names()) {
    CAPTURE(std::string(name));
    auto r = generate_builtin(name);
    REQUIRE(r.ok());
    check_round_trip(*r);
  }
}

TEST_CASE("reproduce: optimizer runs (momentum, Nesterov, Adam, AdamW, coupled L2) over several chained steps") {
  const std::size_t np = xor_input().base.topology.parameter_order.size();
  const std::vector<OptimizerConfig> configs = {
      {.name = OptimizerName::sgd, .learning_rate = 0.5, .weight_decay = 0.01},
      {.name = OptimizerName::sgd_momentum, .learning_rate = 0.5, .weight_decay = 0.01, .momentum = 0.9},
      {.name = OptimizerName::sgd_momentum, .learning_rate = 0.5, .momentum = 0.9, .nesterov = true},
      {.name = OptimizerName::sgd_momentum, .learning_rate = 0.5, .momentum = 0.9, .dampening = 0.1},
      {.name = OptimizerName::adam, .learning_rate = 0.5, .beta1 = 0.9, .beta2 = 0.999, .epsilon = 1e-8, .t = 1},
      {.name = OptimizerName::adamw, .learning_rate = 0.5, .beta1 = 0.9, .beta2 = 0.999, .epsilon = 1e-8,
       .t = 1, .weight_decay = 0.01}};
  for (const auto& oc : configs) {
    CAPTURE(to_string(oc.name));
    GeneralInput in = xor_input();
    in.base.trace_id = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
    in.optimizer = oc;
    if (oc.name != OptimizerName::sgd) {
      in.state_before = std::vector<std::optional<OptimizerState>>(np, OptimizerState{});
    }
    auto run = run_multi_step(in, 4, {});
    REQUIRE_MESSAGE(run.ok(), (run.ok() ? "" : run.error().to_string()));
    check_round_trip(std::vector<EngineReceipt>(run->begin(), run->end()));
  }
}

TEST_CASE("reproduce: a batched receipt regenerates") {
  GeneralInput in = softmax_ce_input();
  in.batch = Batch{{Sample{"a", {1.0, 0.5}, {1, 0, 0}}, Sample{"b", {-0.5, 0.25}, {0, 0, 1}},
                    Sample{"c", {0.1, 0.9}, {0, 1, 0}}},
                   Reduction::mean};
  auto r = run_batched_general_step(in);
  REQUIRE(r.ok());
  check_round_trip(std::vector<ordered_json>{*r});
}

TEST_CASE("reproduce: a broken chain is re-run from the stored 9-digit values") {
  auto run = generate_builtin("xor-multi-step");
  REQUIRE(run.ok());
  auto records = parse(emit_all(*run));
  records[1]["step_index"] = 5;  // no longer continues record 1
  auto again = receipt::reproduce::reproduce(records);
  REQUIRE(again.ok());
  CHECK(to_json((*again)[1])["parameters_before"] == records[1]["parameters_before"]);
}

TEST_CASE("reproduce: errors name the record and the field") {
  auto run = generate_builtin("xor-multi-step");
  REQUIRE(run.ok());
  auto records = parse(emit_all(*run));
  records[1]["inputs"]["x1"] = "one";
  auto r = receipt::reproduce::reproduce(records);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where().line == 2);
  CHECK(r.error().where().json_path == "/inputs/x1");
  records = parse(emit_all(*run));
  records[0].erase("schema_version");
  r = receipt::reproduce::reproduce(records);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where().line == 1);
}
