// parse_state: the strict reader of the JSON state (state_json.hpp).
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "common/json_reader.hpp"
#include "nl/named_tensors.hpp"
#include "nl/state_json.hpp"

namespace nl {
namespace {

using Json = nlohmann::ordered_json;

// The caller names the file (Error::at_file); errors here carry the JSON path.
const common::JsonReader& reader() {
  static const common::JsonReader r{"", 0, common::JsonReader::Dialect::quoting};
  return r;
}

common::Error state_error(const std::string& path, const std::string& what) { return reader().error(path, what); }

template <class Node>
common::Result<std::size_t> size_at(const Node& v, const std::string& path) {
  auto x = reader().unsigned_integer(v, path);
  if (!x.ok()) return x.error();
  return static_cast<std::size_t>(*x);
}

// An fp32 value: a finite number within the float range.
common::Result<float> float_value(const Json& v, const std::string& path) {
  auto x = reader().finite_number(v, path);
  if (!x.ok()) return x.error();
  if (std::fabs(*x) > static_cast<double>(std::numeric_limits<float>::max())) {
    return state_error(path, "expected a finite fp32 value, got " + common::excerpt(v.dump()));
  }
  return static_cast<float>(*x);
}

common::Status floats_into(const Json& arr, const std::string& path, std::span<float> out) {
  if (auto s = reader().array(arr, path); !s.ok()) return s;
  if (arr.size() != out.size()) {
    return state_error(path, "holds " + std::to_string(arr.size()) + " values; expected " + std::to_string(out.size()));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto f = float_value(arr[i], common::json_child_path(path, i));
    if (!f.ok()) return f.error();
    out[i] = *f;
  }
  return {};
}

template <class Node>
common::Result<std::vector<std::size_t>> sizes_at(const Node& v, const std::string& path) {
  if (auto s = reader().array(v, path); !s.ok()) return s.error();
  std::vector<std::size_t> out;
  out.reserve(v.size());
  for (const auto& e : common::elements_of(v)) {
    auto x = size_at(e, common::json_child_path(path, out.size()));
    if (!x.ok()) return x.error();
    out.push_back(*x);
  }
  return out;
}

}  // namespace

namespace {

// parse_config_json, for a tree and for a document.
template <class Node>
common::Result<MagConfig> parse_config(const Node& c, const std::string& p) {
  const common::JsonReader& r = reader();
  if (auto s = r.check_object(c, p,
                              {"vocab", "d", "heads", "seq_len", "window", "rule", "periods", "seed", "d_h", "m", "d_c",
                               "lambda_k", "lambda_v", "lambda_2", "lambda_loc", "huber_delta", "p", "a_s",
                               "lattice_variant", "schedule"},
                              {"vocab", "d", "heads", "seq_len", "window", "rule", "periods"});
      !s.ok()) {
    return s.error();
  }
  MagConfig cfg;
  RuleConfig& rc = cfg.rule_cfg;
  const std::pair<const char*, std::size_t*> sizes[] = {{"vocab", &cfg.vocab}, {"d", &cfg.d},     {"heads", &cfg.heads},
                                                        {"seq_len", &cfg.seq_len}, {"window", &cfg.window},
                                                        {"d_h", &rc.d_h},   {"m", &rc.m},     {"d_c", &rc.d_c}};
  for (auto [key, field] : sizes) {
    const auto v_at = common::find_member(c, key);
    if (!v_at) continue;  // the required ones were checked above
    auto v = size_at(*v_at, common::json_child_path(p, key));
    if (!v.ok()) return v.error();
    *field = *v;
  }
  auto rule_name = r.string(*common::find_member(c, "rule"), p + "/rule");
  if (!rule_name.ok()) return rule_name.error();
  const auto key = tape::opaque::parse_opaque_key(*rule_name);
  bool found = false;
  for (RuleKind k : kAllRuleKinds) {
    if (key && active_key(k) == *key) cfg.rule = k, found = true;
  }
  if (!found) return state_error(p + "/rule", "unknown rule \"" + common::excerpt(*rule_name) + "\"");
  auto periods = sizes_at(*common::find_member(c, "periods"), p + "/periods");
  if (!periods.ok()) return periods.error();
  cfg.periods = *periods;
  if (const auto at = common::find_member(c, "seed")) {
    auto seed = r.unsigned_integer(*at, p + "/seed");
    if (!seed.ok()) return seed.error();
    cfg.seed = *seed;
  }
  rc.d = cfg.d;
  const std::pair<const char*, double*> numbers[] = {
      {"lambda_k", &rc.lambda_k},     {"lambda_v", &rc.lambda_v},       {"lambda_2", &rc.lambda_2},
      {"lambda_loc", &rc.lambda_loc}, {"huber_delta", &rc.huber_delta}, {"p", &rc.p},
      {"a_s", &rc.a_s}};
  for (auto [key, field] : numbers) {
    const auto at = common::find_member(c, key);
    if (!at) continue;
    auto v = r.finite_number(*at, common::json_child_path(p, key));
    if (!v.ok()) return v.error();
    *field = *v;
  }
  if (const auto at = common::find_member(c, "schedule")) {
    auto i = r.one_of(*at, p + "/schedule", {"fixed", "learned"});
    if (!i.ok()) return i.error();
    cfg.schedule = *i == 0 ? FrequencySchedule::fixed : FrequencySchedule::learned;
  }
  if (const auto at = common::find_member(c, "lattice_variant")) {
    constexpr LatticeVariant kVariants[] = {LatticeVariant::decode, LatticeVariant::encode, LatticeVariant::similarity};
    auto i = r.one_of(*at, p + "/lattice_variant", {"decode", "encode", "similarity"});
    if (!i.ok()) return i.error();
    rc.lattice_variant = kVariants[*i];
  }
  if (auto s = validate(cfg); !s.ok()) return state_error(p, s.error().message());
  return cfg;
}

}  // namespace

common::Result<MagConfig> parse_config_json(const Json& c, const std::string& path) { return parse_config(c, path); }
common::Result<MagConfig> parse_config_json(common::JsonView c, const std::string& path) { return parse_config(c, path); }

namespace {

common::Status parse_parameters(const Json& arr, const MagConfig& cfg, MagParams<float>& params) {
  const std::string p = "/parameters";
  const common::JsonReader& r = reader();
  if (auto s = r.array(arr, p); !s.ok()) return s;
  params = MagParams<float>::zeros(cfg);
  std::map<std::string, NamedTensor> expected;
  for (NamedTensor& t : named_tensors(cfg, params)) expected.emplace(t.name, t);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string at = common::json_child_path(p, i);
    const Json& e = arr[i];
    if (auto s = r.check_object(e, at, {"name", "shape", "data"}, {"name", "shape", "data"}); !s.ok()) return s;
    auto name = r.string(e.at("name"), at + "/name");
    if (!name.ok()) return name.error();
    const auto it = expected.find(*name);
    if (it == expected.end()) {
      return state_error(at + "/name", "unknown parameter \"" + common::excerpt(*name) + "\" for this configuration");
    }
    if (!seen.insert(*name).second) return state_error(at + "/name", "parameter \"" + *name + "\" appears twice");
    auto shape = sizes_at(e.at("shape"), at + "/shape");
    if (!shape.ok()) return shape.error();
    if (*shape != it->second.shape) {
      std::string want = "[";
      for (std::size_t k = 0; k < it->second.shape.size(); ++k) want += (k ? "," : "") + std::to_string(it->second.shape[k]);
      return state_error(at + "/shape", "parameter \"" + *name + "\" must have shape " + want + "]");
    }
    if (auto s = floats_into(e.at("data"), at + "/data", it->second.data); !s.ok()) return s;
  }
  for (const auto& [name, t] : expected) {
    if (!seen.contains(name)) return state_error(p, "missing parameter \"" + name + "\"");
  }
  return {};
}

}  // namespace

common::Result<StateInput> parse_state(const Json& doc) {
  const common::JsonReader& r = reader();
  if (auto s = r.check_object(doc, "", {"format", "config", "parameters", "tokens", "context", "step"},
                              {"format", "config", "parameters", "tokens"});
      !s.ok()) {
    return s.error();
  }
  auto format = r.one_of(doc.at("format"), "/format", {kStateFormat});
  if (!format.ok()) return format.error();
  StateInput in;
  auto cfg = parse_config_json(doc.at("config"), "/config");
  if (!cfg.ok()) return cfg.error();
  in.cfg = std::move(*cfg);
  if (auto s = parse_parameters(doc.at("parameters"), in.cfg, in.params); !s.ok()) return s.error();
  const Json& tokens = doc.at("tokens");
  if (auto s = r.check_object(tokens, "/tokens", {"ids", "targets"}, {"ids", "targets"}); !s.ok()) return s.error();
  for (auto [key, field] : {std::pair{"ids", &in.ids}, std::pair{"targets", &in.targets}}) {
    const std::string at = std::string("/tokens/") + key;
    auto v = sizes_at(tokens.at(key), at);
    if (!v.ok()) return v.error();
    if (v->size() != in.cfg.seq_len) {
      return state_error(at, "holds " + std::to_string(v->size()) + " tokens; expected seq_len=" + std::to_string(in.cfg.seq_len));
    }
    *field = std::move(*v);
  }
  // Input ids index the embedding; a target id >= vocab is an ignored position of the loss
  // (nltrain-math section 9, as PyTorch's ignore_index), not an error.
  for (std::size_t t = 0; t < in.ids.size(); ++t) {
    if (in.ids[t] >= in.cfg.vocab) return state_error(common::json_child_path("/tokens/ids", t), "token must be < vocab");
  }
  if (doc.contains("context")) {
    const Json& c = doc.at("context");
    if (auto s = r.array(c, "/context"); !s.ok()) return s.error();
    if (c.size() != in.cfg.levels()) {
      return state_error("/context", "holds " + std::to_string(c.size()) + " per-level states; expected " +
                                 std::to_string(in.cfg.levels()));
    }
    ContextMemory<float> ctx;
    for (std::size_t l = 0; l < c.size(); ++l) {
      std::vector<float>& level = ctx.levels.emplace_back(state_size(in.cfg.rule, in.cfg.rule_cfg));
      if (auto s = floats_into(c[l], common::json_child_path("/context", l), level); !s.ok()) return s.error();
    }
    in.context = std::move(ctx);
  }
  if (doc.contains("step")) {
    auto step = r.unsigned_integer(doc.at("step"), "/step");
    if (!step.ok()) return step.error();
    in.step = *step;
  }
  return in;
}

}  // namespace nl
