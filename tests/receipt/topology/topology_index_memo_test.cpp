// index_topology (receipt/topology/topology_index.hpp) remembers the last topology it indexed on
// each thread: through a sequence that returns to a topology, changes one edge, one bias unit or
// one id, or breaks it, each answer is the one a fresh index of that topology gives.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "receipt/topology/topology_index.hpp"

namespace {

using receipt::topology::Parameter;
using receipt::topology::Role;
using receipt::topology::Topology;
using receipt::topology::TopologyIndex;

Parameter weight_param(std::string id, Role role, std::string from, std::string to) {
  Parameter p;
  p.id = std::move(id);
  p.role = role;
  p.from_unit = std::move(from);
  p.to_unit = std::move(to);
  return p;
}

Parameter bias_param(std::string id, Role role, std::vector<std::string> units) {
  Parameter p;
  p.id = std::move(id);
  p.role = role;
  p.applies_to_units = std::move(units);
  return p;
}

// 2-2-1 with a bias per layer.
Topology two_two_one() {
  Topology t;
  t.input_size = 2;
  t.hidden_size = 2;
  t.output_size = 1;
  t.unit_order = {{"x1", "x2"}, {"h1", "h2"}, {"y"}};
  t.parameters = {weight_param("w_x1_h1", Role::input_to_hidden_weight, "x1", "h1"),
                  weight_param("w_x2_h1", Role::input_to_hidden_weight, "x2", "h1"),
                  weight_param("w_x1_h2", Role::input_to_hidden_weight, "x1", "h2"),
                  weight_param("w_x2_h2", Role::input_to_hidden_weight, "x2", "h2"),
                  weight_param("w_h1_y", Role::hidden_to_output_weight, "h1", "y"),
                  weight_param("w_h2_y", Role::hidden_to_output_weight, "h2", "y"),
                  bias_param("b_hidden", Role::hidden_bias, {"h1", "h2"}),
                  bias_param("b_output", Role::output_bias, {"y"})};
  for (const auto& p : t.parameters) t.parameter_order.push_back(p.id);
  return t;
}

// What a caller can see of an index, or the error's words.
std::string index_outcome(const common::Result<TopologyIndex>& r) {
  if (!r) return "error: " + r.error().to_string();
  std::string s = std::to_string(r->n_in) + "-" + std::to_string(r->n_hid) + "-" + std::to_string(r->n_out) + ":";
  for (const auto* v : {&r->w_ih, &r->w_ho, &r->bias_hidden, &r->bias_output}) {
    for (const auto x : *v) s += std::to_string(x) + ",";
    s += "|";
  }
  for (const auto& slot : r->slots) {
    s += std::to_string(static_cast<int>(slot.role)) + "/" + std::to_string(slot.from) + "/" + std::to_string(slot.to) + " ";
  }
  return s;
}

}  // namespace

TEST_CASE("topology index: a remembered topology answers as a fresh index of each topology in turn") {
  const Topology base = two_two_one();

  Topology swapped = base;  // w_x1_h1 now feeds h2 and w_x1_h2 feeds h1
  swapped.parameters[0].to_unit = "h2";
  swapped.parameters[2].to_unit = "h1";

  Topology renamed = base;  // one id differs from its parameter_order entry: an error
  renamed.parameters[5].id = "w_h2_out";

  Topology per_unit = base;  // the hidden bias applies to h1 only: h2 has none, an error
  per_unit.parameters[6].applies_to_units = std::vector<std::string>{"h1"};

  const std::vector<const Topology*> sequence = {&base, &base, &swapped, &base, &renamed, &renamed,
                                                 &base, &per_unit, &swapped, &swapped, &base};
  // Each topology's answer while nothing is remembered for it: the first index of it in a thread
  // that has indexed nothing else.
  std::vector<std::string> fresh;
  for (const Topology* t : sequence) {
    std::string got;
    std::thread([&] { got = index_outcome(receipt::topology::index_topology(*t)); }).join();
    fresh.push_back(got);
  }
  CHECK(fresh[0] != fresh[2]);                     // the swap moves two weights
  CHECK(fresh[4].rfind("error: ", 0) == 0);        // the renamed id
  CHECK(fresh[7].rfind("error: ", 0) == 0);        // the missing bias
  CHECK(fresh[4] != fresh[7]);
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    CAPTURE(i);
    CHECK(index_outcome(receipt::topology::index_topology(*sequence[i])) == fresh[i]);
  }
  // The limit is part of what is remembered: the same topology under a ceiling it exceeds.
  CHECK(index_outcome(receipt::topology::index_topology(base, 1)).rfind("error: ", 0) == 0);
  CHECK(index_outcome(receipt::topology::index_topology(base)) == fresh[0]);
}
