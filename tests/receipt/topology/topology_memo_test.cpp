// parse_topology_remembered (receipt/topology/topology_memo.hpp) answers what parse_topology
// answers, error included, through a sequence of blocks that differ from the remembered one in
// ways nlohmann's == does not see (1 against 1.0, 0.0 against -0.0) and in ways it does; and
// same_json_exactly tells those apart.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "receipt/topology/topology_memo.hpp"

namespace {

using nlohmann::ordered_json;
using receipt::topology::ParseOptions;
using receipt::topology::Topology;

ordered_json xor_topology() {
  return ordered_json::parse(R"({"layers":["input","hidden","output"],"input_size":2,"hidden_size":2,"output_size":1,
    "unit_order":{"input":["x1","x2"],"hidden":["h1","h2"],"output":["y"]},
    "parameter_order":["w_x1_h1","w_x2_h1","w_x1_h2","w_x2_h2","w_h1_y","w_h2_y","b_hidden","b_output"],
    "parameters":[{"id":"w_x1_h1","role":"input_to_hidden_weight","from_unit":"x1","to_unit":"h1"},
      {"id":"w_x2_h1","role":"input_to_hidden_weight","from_unit":"x2","to_unit":"h1"},
      {"id":"w_x1_h2","role":"input_to_hidden_weight","from_unit":"x1","to_unit":"h2"},
      {"id":"w_x2_h2","role":"input_to_hidden_weight","from_unit":"x2","to_unit":"h2"},
      {"id":"w_h1_y","role":"hidden_to_output_weight","from_unit":"h1","to_unit":"y"},
      {"id":"w_h2_y","role":"hidden_to_output_weight","from_unit":"h2","to_unit":"y"},
      {"id":"b_hidden","role":"hidden_bias","applies_to_units":["h1","h2"]},
      {"id":"b_output","role":"output_bias","applies_to_units":["y"]}],
    "activation_hidden":"sigmoid","activation_output":"sigmoid","loss":"half_squared_error","bias_sharing":"per_layer"})");
}

// A receipt's topology options (softmax allowed), as Rule 14's engine input reads them.
ParseOptions receipt_options() {
  ParseOptions opts;
  opts.allow_softmax = true;
  return opts;
}

// What a caller can see of a result: the error's words, or the parsed fields.
std::string outcome(const common::Result<Topology>& r) {
  if (!r) return "error: " + r.error().to_string();
  const Topology& t = *r;
  std::string s = std::to_string(t.input_size) + "," + std::to_string(t.hidden_size) + "," + std::to_string(t.output_size) + ":";
  for (const auto& p : t.parameter_order) s += p + " ";
  for (const auto* layer : {&t.unit_order.input, &t.unit_order.hidden, &t.unit_order.output}) {
    s += "|";
    for (const auto& u : *layer) s += u + " ";
  }
  s += std::to_string(t.parameters.size()) + "/" + std::to_string(static_cast<int>(t.activation_output)) + "/" +
       std::to_string(static_cast<int>(t.loss)) + "/" + std::to_string(static_cast<int>(t.bias_sharing));
  return s;
}

}  // namespace

TEST_CASE("topology memo: same_json_exactly sees what == does not") {
  using receipt::topology::same_json_exactly;
  CHECK(ordered_json(1) == ordered_json(1.0));
  CHECK_FALSE(same_json_exactly(ordered_json(1), ordered_json(1.0)));
  CHECK_FALSE(same_json_exactly(ordered_json(0.0), ordered_json(-0.0)));
  CHECK_FALSE(same_json_exactly(ordered_json::parse(R"({"a":1,"b":2})"), ordered_json::parse(R"({"b":2,"a":1})")));
  CHECK_FALSE(same_json_exactly(ordered_json::parse("[1,[2]]"), ordered_json::parse("[1,[2.0]]")));
  CHECK_FALSE(same_json_exactly(ordered_json::parse("[1,2]"), ordered_json::parse("[1,2,3]")));
  CHECK(same_json_exactly(xor_topology(), xor_topology()));
  CHECK(same_json_exactly(ordered_json::parse(R"({"a":[0.5,"x",null,true]})"), ordered_json::parse(R"({"a":[0.5,"x",null,true]})")));
}

TEST_CASE("topology memo: every answer is parse_topology's, through a sequence of near-identical blocks") {
  const ParseOptions opts = receipt_options();
  std::vector<ordered_json> blocks{xor_topology()};
  auto as_float = xor_topology();
  as_float["input_size"] = 2.0;  // == to the first block, but a float (accepted as JavaScript would)
  blocks.push_back(as_float);
  blocks.push_back(xor_topology());
  auto renamed = xor_topology();
  renamed["parameter_order"][0] = "w_x1_h1_other";
  blocks.push_back(renamed);
  auto three = xor_topology();
  three["output_size"] = 3;
  blocks.push_back(three);
  blocks.push_back(xor_topology());
  auto softmax = xor_topology();
  softmax["activation_output"] = "softmax";
  softmax["loss"] = "cross_entropy_softmax";
  blocks.push_back(softmax);
  blocks.push_back(ordered_json::array());
  blocks.push_back(xor_topology());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    CAPTURE(i);
    const std::string want = outcome(receipt::topology::parse_topology(nlohmann::json(blocks[i]), "/topology", opts));
    CHECK(outcome(receipt::topology::parse_topology_remembered(blocks[i], "/topology", opts)) == want);
    // Asked again, now remembered: the same answer.
    CHECK(outcome(receipt::topology::parse_topology_remembered(blocks[i], "/topology", opts)) == want);
  }
  // Given each block's bytes (as a document reader would), equal bytes are the block again and
  // other bytes are read: still parse_topology's answers, and a block dumped as 1.0 is not 1.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      CAPTURE(i);
      const std::string want = outcome(receipt::topology::parse_topology(nlohmann::json(blocks[i]), "/topology", opts));
      const std::string bytes = blocks[i].dump();
      CHECK(outcome(receipt::topology::parse_topology_remembered(blocks[i], "/topology", opts, bytes)) == want);
      CHECK(outcome(receipt::topology::parse_topology_remembered(blocks[i], "/topology", opts, bytes)) == want);
    }
  }
  CHECK(outcome(receipt::topology::parse_topology_remembered(blocks[0], "/topology", opts)) ==
        outcome(receipt::topology::parse_topology(nlohmann::json(blocks[0]), "/topology", opts)));
  // The path and the options are part of what is remembered.
  CHECK(outcome(receipt::topology::parse_topology_remembered(softmax, "/topology", opts)).rfind("error", 0) != 0);
  ParseOptions strict;
  CHECK(outcome(receipt::topology::parse_topology_remembered(softmax, "/topology", strict)) ==
        outcome(receipt::topology::parse_topology(nlohmann::json(softmax), "/topology", strict)));
  CHECK(outcome(receipt::topology::parse_topology_remembered(softmax, "/t", strict)) ==
        outcome(receipt::topology::parse_topology(nlohmann::json(softmax), "/t", strict)));
}

TEST_CASE("topology in place: the ordered_json reading answers what the sorted copy answers") {
  const ParseOptions opts = receipt_options();
  std::vector<ordered_json> blocks{xor_topology()};
  // Two unknown keys out of sorted order: the copy names the first in sorted order ("aaa").
  auto unknown = xor_topology();
  unknown["zzz"] = 1;
  unknown["aaa"] = 2;
  blocks.push_back(unknown);
  auto unknown_in_parameter = xor_topology();
  unknown_in_parameter["parameters"][2]["zeta"] = 1;
  unknown_in_parameter["parameters"][2]["alpha"] = 1;
  blocks.push_back(unknown_in_parameter);
  auto missing = xor_topology();
  missing.erase("loss");
  missing.erase("bias_sharing");
  blocks.push_back(missing);
  auto twice = xor_topology();
  twice["parameter_order"][1] = "w_x1_h1";
  blocks.push_back(twice);
  auto bad_role = xor_topology();
  bad_role["parameters"][0]["role"] = "bias";
  blocks.push_back(bad_role);
  blocks.push_back(ordered_json("topology"));
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    CAPTURE(i);
    CHECK(outcome(receipt::topology::parse_topology(blocks[i], "/topology", opts)) ==
          outcome(receipt::topology::parse_topology(nlohmann::json(blocks[i]), "/topology", opts)));
  }
  CHECK(outcome(receipt::topology::parse_topology(unknown, "/topology", opts)).find("aaa") != std::string::npos);
}
