// The optimizer state an engine input reads from a receipt's updates: read without spelling a
// path where it is plain, and refused, where it is not, in the words of the full reading (the
// path of the first bad field).
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/builtin_inputs.hpp"
#include "receipt/engine/multi_step.hpp"
#include "receipt/reproduce/reproduce.hpp"

using nlohmann::ordered_json;

namespace read_states_test {

// Record 2 of a 3-step run with the optimizer `name` (its updates carry a state_before).
ordered_json stateful_receipt(receipt::engine::OptimizerName name) {
  using namespace receipt::engine;
  GeneralInput in = xor_input();
  in.base.trace_id = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
  in.optimizer = name == OptimizerName::sgd_momentum
                     ? OptimizerConfig{.name = name, .learning_rate = 0.5, .momentum = 0.9}
                     : OptimizerConfig{.name = name, .learning_rate = 0.5, .beta1 = 0.9, .beta2 = 0.999,
                                       .epsilon = 1e-8, .t = 1};
  in.state_before = std::vector<std::optional<OptimizerState>>(in.base.topology.parameter_order.size(), OptimizerState{});
  auto run = run_multi_step(in, 3, {});
  REQUIRE(run.ok());
  auto bytes = receipt::emit::emit_receipts(std::vector<EngineReceipt>(run->begin(), run->end()));
  REQUIRE(bytes.ok());
  auto records = common::parse_jsonl_text(*bytes);
  REQUIRE(records.ok());
  return (*records)[2].value;
}

// What extract_general_input says: the states' values, or the error's path and message.
std::string outcome(const ordered_json& receipt) {
  auto in = receipt::reproduce::extract_general_input(receipt);
  if (!in) return "error " + in.error().where().json_path + ": " + in.error().message();
  std::string s;
  REQUIRE(in->state_before.has_value());
  for (const auto& st : *in->state_before) {
    s += st ? std::to_string(st->buffer) + "/" + std::to_string(st->m) + "/" + std::to_string(st->v) + " " : "- ";
  }
  return s;
}

}  // namespace read_states_test

TEST_CASE("extract_general_input: every update's state_before, plain or refused as the full reading refuses it") {
  namespace rs = read_states_test;
  using receipt::engine::OptimizerName;
  using Edit = std::function<void(ordered_json& update)>;
  struct Case {
    const char* what;
    Edit edit;
    const char* momentum;  // the outcome's start with momentum, then with Adam ("" : the states read)
    const char* adam;
  };
  const std::vector<Case> cases = {
      {"an extra key", [](ordered_json& u) { u["optimizer"]["state_before"]["extra"] = 1; },
       "error /updates/3/optimizer/state_before/extra: ", "error /updates/3/optimizer/state_before/extra: "},
      {"no state key", [](ordered_json& u) { u["optimizer"]["state_before"] = ordered_json::object(); },
       "error /updates/3/optimizer/state_before: ", "error /updates/3/optimizer/state_before: "},
      {"a string", [](ordered_json& u) { u["optimizer"]["state_before"].begin().value() = "0.5"; },
       "error /updates/3/optimizer/state_before/buffer: ", "error /updates/3/optimizer/state_before/m: "},
      {"not an object", [](ordered_json& u) { u["optimizer"]["state_before"] = ordered_json::array(); },
       "error /updates/3/optimizer/state_before: ", "error /updates/3/optimizer/state_before: "},
      {"no state_before", [](ordered_json& u) { u["optimizer"].erase("state_before"); },
       "error /updates/3/optimizer: ", "error /updates/3/optimizer: "},
      {"no optimizer", [](ordered_json& u) { u.erase("optimizer"); }, "error /updates/3/optimizer: ",
       "error /updates/3/optimizer: "},
      {"an unknown parameter", [](ordered_json& u) { u["parameter_id"] = "nobody"; },
       "error /updates/3/parameter_id: ", "error /updates/3/parameter_id: "},
      {"a number as the id", [](ordered_json& u) { u["parameter_id"] = 3; }, "error /updates/3/parameter_id: ",
       "error /updates/3/parameter_id: "},
      {"integers", [](ordered_json& u) { for (auto& v : u["optimizer"]["state_before"]) v = 2; }, "", ""},
  };
  for (const auto name : {OptimizerName::sgd_momentum, OptimizerName::adam}) {
    const ordered_json clean = rs::stateful_receipt(name);
    const std::string read = rs::outcome(clean);
    REQUIRE(read.rfind("error", 0) != 0);
    for (const auto& c : cases) {
      const std::string where = std::string(c.what) + (name == OptimizerName::adam ? ", Adam" : ", momentum");
      INFO(where);
      ordered_json r = clean;
      c.edit(r["updates"][3]);
      const std::string got = rs::outcome(r);
      const std::string want = name == OptimizerName::adam ? c.adam : c.momentum;
      if (want.empty()) {
        CHECK(got.rfind("error", 0) != 0);
        CHECK(got != read);  // the 2s were read
      } else {
        CHECK(got.rfind(want, 0) == 0);
      }
    }
  }
}
