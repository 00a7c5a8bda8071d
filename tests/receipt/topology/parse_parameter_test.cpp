// accepted_parameter (the path-free read of one topology.parameters entry) accepts exactly what
// parse_parameter accepts, with the same fields, over valid entries and every single-field
// mutation of them, in both tree types, duplicate keys included.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/json_input.hpp"
#include "receipt/topology/parse_parameter.hpp"

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using receipt::topology::Parameter;

constexpr std::size_t kMaxUnits = 3;

bool same(const Parameter& a, const Parameter& b) {
  return a.id == b.id && a.role == b.role && a.from_unit == b.from_unit && a.to_unit == b.to_unit &&
         a.applies_to_units == b.applies_to_units;
}

// Values every field is tried with: what the reader accepts and each way it refuses.
std::vector<ordered_json> candidate_values() {
  std::vector<ordered_json> v = {nullptr, true, 0, -1, 1.5, "", "x", "x1", "X_9", "1x", "_x", "x-1", "x 1", "é",
                                 "hidden_bias", "output_bias", "input_to_hidden_weight", "hidden_to_output_weight",
                                 "Hidden_bias", "hidden_bias ", ordered_json::object(), ordered_json::array(),
                                 ordered_json::array({"h1"}), ordered_json::array({"h1", "h2", "h3"}),
                                 ordered_json::array({"h1", "h2", "h3", "h4"}), ordered_json::array({"h1", 2}),
                                 ordered_json::array({"h1", "2h"}), ordered_json::array({nullptr})};
  v.push_back(std::string(256, 'a'));
  v.push_back(std::string(257, 'a'));
  v.push_back("a" + std::string(255, '_'));
  return v;
}

std::vector<ordered_json> entries() {
  const std::vector<ordered_json> bases = {
      {{"id", "w_x1_h1"}, {"role", "input_to_hidden_weight"}, {"from_unit", "x1"}, {"to_unit", "h1"}},
      {{"id", "b_hidden"}, {"role", "hidden_bias"}, {"applies_to_units", {"h1", "h2"}}},
      {{"id", "b_output"}, {"role", "output_bias"}},
  };
  const std::vector<std::string> keys = {"id", "role", "from_unit", "to_unit", "applies_to_units", "extra", "ID"};
  std::vector<ordered_json> out = bases;
  out.push_back(nullptr);
  out.push_back(ordered_json::array());
  out.push_back("w");
  for (const ordered_json& base : bases) {
    for (const std::string& key : keys) {
      ordered_json without = base;
      without.erase(key);
      out.push_back(without);
      for (const ordered_json& value : candidate_values()) {
        ordered_json with = base;
        with[key] = value;
        out.push_back(with);
      }
    }
  }
  return out;
}

void check_agree(const auto& node, const std::string& label) {
  const common::JsonReader r{std::string_view{}};
  const auto slow = receipt::topology::parse_parameter(r, node, "/p", kMaxUnits);
  const auto fast = receipt::topology::accepted_parameter(node, kMaxUnits);
  INFO(label);
  REQUIRE(fast.has_value() == static_cast<bool>(slow));
  if (fast) CHECK(same(*fast, *slow));
}

}  // namespace

TEST_CASE("accepted_parameter: accepts exactly what parse_parameter accepts, with the same fields") {
  const std::vector<ordered_json> all = entries();
  std::size_t accepted = 0;
  for (const ordered_json& e : all) {
    check_agree(e, e.dump());
    check_agree(json(e), "json " + e.dump());
    accepted += receipt::topology::accepted_parameter(e, kMaxUnits).has_value();
  }
  // Both outcomes are exercised in quantity (a reader that refused everything would agree on
  // no accepted entry).
  CHECK(accepted > 20);
  CHECK(all.size() - accepted > 200);
}

TEST_CASE("accepted_parameter: duplicate keys as the tree reader keeps them read as parse_parameter reads them") {
  for (const char* text : {R"({"id":"a","role":"hidden_bias","id":"1b"})", R"({"id":"1b","role":"hidden_bias","id":"a"})",
                           R"({"id":"a","role":"hidden_bias","role":"nope"})",
                           R"({"id":"a","role":"nope","role":"output_bias"})",
                           R"({"id":"a","role":"hidden_bias","applies_to_units":["h1"],"applies_to_units":7})"}) {
    auto doc = common::parse_json_text(text);
    REQUIRE(doc);
    check_agree(*doc, text);
  }
}
