#include "nl/state_json.hpp"

#include <doctest/doctest.h>

#include <string>

#include "mag_check.hpp"
#include "nl/traced_cms_forward.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"

namespace {

using Json = nlohmann::ordered_json;

nl::StateInput sample(nl::RuleKind rule) {
  nl::StateInput in;
  in.cfg = nltest::mag_config(rule, 2);
  in.params = nltest::stress_params(in.cfg).cast<float>();
  in.params.e[3] = 0.1f;  // not a short decimal: must still round-trip
  in.ids = nltest::chunk_ids(in.cfg);
  in.targets = nltest::chunk_targets(in.cfg);
  in.targets[2] = 99;  // ignored target
  in.context = nltest::cast_context<float>(nltest::stress_context(in.cfg, 4));
  in.step = 1;  // pulse [true, false]: level 1 frozen
  return in;
}

// Parses the text of doc after one edit; returns the error's JSON path and message.
std::string error_of(const std::function<void(Json&)>& edit) {
  Json doc = nl::state_to_json(sample(nl::RuleKind::atlas));
  edit(doc);
  const auto r = nl::parse_state(Json::parse(doc.dump()));
  return r.ok() ? std::string("ok") : r.error().where().json_path + " | " + r.error().message();
}

}  // namespace

TEST_CASE("state_json: input round-trips exactly through text") {
  for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::atlas, nl::RuleKind::lattice}) {
    const nl::StateInput in = sample(rule);
    const std::string text = nl::state_to_json(in).dump();
    const auto back = nl::parse_state(Json::parse(text));
    REQUIRE(back.ok());
    CHECK(back->params.to_flat() == in.params.to_flat());
    CHECK(back->context->levels == in.context->levels);
    CHECK(back->ids == in.ids);
    CHECK(back->targets == in.targets);
    CHECK(back->step == 1);
    CHECK(back->cfg.rule == rule);
    CHECK(back->cfg.periods == in.cfg.periods);
    CHECK(nl::state_to_json(*back).dump() == text);
  }
}

TEST_CASE("state_json: the result carries loss, gradients, frozen levels' error buffer and the context after") {
  const nl::StateInput in = sample(nl::RuleKind::titans);
  const auto r = nl::evaluate_state(nltest::registry(), in);
  REQUIRE(r.ok());
  CHECK(r->pulse.active == std::vector<bool>{true, false});
  const auto direct = nl::tape_gradients(nltest::registry(), in.cfg, in.params, in.ids, in.targets, r->pulse, *in.context);
  REQUIRE(direct.ok());
  CHECK(r->loss == direct->loss);
  const Json out = Json::parse(nl::result_to_json(in.cfg, *r).dump());
  CHECK(out.at("format") == nl::kStateResultFormat);
  CHECK(out.at("loss").get<double>() == static_cast<double>(direct->loss));
  CHECK(out.at("gradients").size() == 6 + 2 * 9);
  CHECK(out.at("error_buffer").size() == 9);  // level 1 only
  CHECK(out.at("error_buffer")[2].at("name") == "levels/1/W_Q");
  std::vector<float> eb_wq;
  for (const auto& v : out.at("error_buffer")[2].at("data")) eb_wq.push_back(static_cast<float>(v.get<double>()));
  CHECK(eb_wq == direct->grads.error[1].w_q);
  std::vector<float> g_e;
  for (const auto& v : out.at("gradients")[0].at("data")) g_e.push_back(static_cast<float>(v.get<double>()));
  CHECK(g_e == direct->grads.params.e);
  CHECK(out.at("context_after").size() == 2);
}

TEST_CASE("state_json: bad states are errors naming the JSON path") {
  CHECK(error_of([](Json&) {}) == "ok");
  CHECK(error_of([](Json& d) { d["extra"] = 1; }).starts_with("/extra"));
  CHECK(error_of([](Json& d) { d["format"] = "v9"; }).starts_with("/format"));
  CHECK(error_of([](Json& d) { d["config"]["heads"] = 3; }).find("heads") != std::string::npos);
  CHECK(error_of([](Json& d) { d["config"]["window"] = 9; }).find("window") != std::string::npos);
  CHECK(error_of([](Json& d) { d["config"]["periods"] = Json::array(); }).find("k=0") != std::string::npos);
  CHECK(error_of([](Json& d) { d["config"]["d"] = -8; }).starts_with("/config/d"));
  CHECK(error_of([](Json& d) { d["config"]["rule"] = "Delta"; }).starts_with("/config/rule"));
  CHECK(error_of([](Json& d) { d["parameters"].erase(4); }).find("missing parameter \"W_O\"") != std::string::npos);
  CHECK(error_of([](Json& d) { d["parameters"].push_back(d["parameters"][0]); }).find("appears twice") != std::string::npos);
  CHECK(error_of([](Json& d) { d["parameters"][1]["name"] = "W_X"; }).starts_with("/parameters/1/name"));
  CHECK(error_of([](Json& d) { d["parameters"][2]["shape"] = {4, 16}; }).starts_with("/parameters/2/shape"));
  CHECK(error_of([](Json& d) { d["parameters"][3]["data"].erase(0); }).starts_with("/parameters/3/data"));
  CHECK(error_of([](Json& d) { d["parameters"][0]["data"][5] = "x"; }).starts_with("/parameters/0/data/5"));
  CHECK(error_of([](Json& d) { d["parameters"][0]["data"][5] = 1e39; }).starts_with("/parameters/0/data/5"));
  CHECK(error_of([](Json& d) { d["parameters"][14]["data"][0] = nullptr; }).starts_with("/parameters/14/data/0"));
  CHECK(error_of([](Json& d) { d["tokens"]["ids"][1] = 16; }).starts_with("/tokens/ids/1"));
  CHECK(error_of([](Json& d) { d["tokens"]["targets"].erase(0); }).starts_with("/tokens/targets"));
  CHECK(error_of([](Json& d) { d["context"][1].erase(0); }).starts_with("/context/1"));
  CHECK(error_of([](Json& d) { d["context"].erase(1); }).starts_with("/context"));
}

TEST_CASE("state_json: what we write validates against schemas/nltrain-state(-result).v0.1.0.json") {
  const auto* state_schema = schema_registry::find_schema("nltrain-state.v0.1.0");
  const auto* result_schema = schema_registry::find_schema("nltrain-state-result.v0.1.0");
  REQUIRE(state_schema != nullptr);
  REQUIRE(result_schema != nullptr);
  const nl::StateInput in = sample(nl::RuleKind::yaad);
  const Json doc = nl::state_to_json(in);
  const auto errors = schema_registry::validate(*state_schema, doc);
  CHECK_MESSAGE(errors.empty(), (errors.empty() ? "" : errors[0].to_string()));
  const auto r = nl::evaluate_state(nltest::registry(), in);
  REQUIRE(r.ok());
  CHECK(schema_registry::is_valid(*result_schema, nl::result_to_json(in.cfg, *r)));
  Json broken = doc;
  broken["tokens"]["ids"][0] = -1;
  CHECK_FALSE(schema_registry::is_valid(*state_schema, broken));
}

TEST_CASE("state_json: a learned schedule carries W_freq and b_freq; the result's pulse is the gate's") {
  nl::StateInput in = sample(nl::RuleKind::delta);
  in.cfg.schedule = nl::FrequencySchedule::learned;
  in.params = nltest::stress_params(in.cfg).cast<float>();
  in.params.b_freq[0] = 4;  // level 1 active although step 1's pulse would freeze it
  const Json doc = nl::state_to_json(in);
  CHECK(doc.at("config").at("schedule") == "learned");
  CHECK(doc.at("parameters").back().at("name") == "b_freq");
  const auto back = nl::parse_state(Json::parse(doc.dump()));
  REQUIRE(back.ok());
  CHECK(back->cfg.schedule == nl::FrequencySchedule::learned);
  CHECK(back->params.to_flat() == in.params.to_flat());
  const auto r = nl::evaluate_state(nltest::registry(), *back);
  REQUIRE(r.ok());
  CHECK(r->pulse.active == std::vector<bool>{true, true});
  CHECK(r->gradients.b_freq.size() == 1);
  CHECK(r->gradients.b_freq[0] != 0.0f);
  const Json out = nl::result_to_json(back->cfg, *r);
  CHECK(out.at("gradients").back().at("name") == "b_freq");
  CHECK(schema_registry::is_valid(*schema_registry::find_schema("nltrain-state.v0.1.0"), doc));
  CHECK(schema_registry::is_valid(*schema_registry::find_schema("nltrain-state-result.v0.1.0"), out));
  auto err = [&](const std::function<void(Json&)>& edit) {
    Json d = doc;
    edit(d);
    const auto p = nl::parse_state(Json::parse(d.dump()));
    return p.ok() ? std::string("ok") : p.error().where().json_path + " | " + p.error().message();
  };
  CHECK(err([](Json& d) { d["config"]["schedule"] = "sometimes"; }).starts_with("/config/schedule"));
  CHECK(err([](Json& d) { d["parameters"].erase(d["parameters"].size() - 2); }).find("W_freq") != std::string::npos);
  CHECK(err([](Json& d) { d["config"]["schedule"] = "fixed"; }).find("W_freq") != std::string::npos);  // now extra
}
