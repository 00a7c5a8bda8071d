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

common::Error bad(const std::string& path, const std::string& what) {
  return common::Error::malformed(path + ": " + what, common::Location{"", 0, path});
}

common::Status only_keys(const Json& obj, const std::string& path, std::initializer_list<const char*> allowed) {
  if (!obj.is_object()) return bad(path.empty() ? "/" : path, "must be an object");
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) return bad(common::json_child_path(path, key), "unknown key");
  }
  return {};
}

common::Result<std::size_t> size_at(const Json& obj, const std::string& path, const char* key) {
  if (!obj.contains(key)) return bad(path + "/" + key, "missing");
  const Json& v = obj.at(key);
  if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0)) {
    return bad(path + "/" + key, "must be a non-negative integer");
  }
  return static_cast<std::size_t>(v.get<std::uint64_t>());
}

common::Result<double> number_at(const Json& obj, const std::string& path, const char* key, double fallback) {
  if (!obj.contains(key)) return fallback;
  const Json& v = obj.at(key);
  if (!v.is_number()) return bad(path + "/" + key, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) return bad(path + "/" + key, "must be finite");
  return x;
}

// An fp32 value: a finite number within the float range.
common::Result<float> float_value(const Json& v, const std::string& path) {
  if (!v.is_number()) return bad(path, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x) || std::fabs(x) > static_cast<double>(std::numeric_limits<float>::max())) {
    return bad(path, "must be a finite fp32 value");
  }
  return static_cast<float>(x);
}

common::Status floats_into(const Json& arr, const std::string& path, std::span<float> out) {
  if (!arr.is_array()) return bad(path, "must be an array of numbers");
  if (arr.size() != out.size()) {
    return bad(path, "holds " + std::to_string(arr.size()) + " values; expected " + std::to_string(out.size()));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto f = float_value(arr[i], path + "/" + std::to_string(i));
    if (!f.ok()) return f.error();
    out[i] = *f;
  }
  return {};
}

common::Result<std::vector<std::size_t>> sizes_at(const Json& v, const std::string& path) {
  if (!v.is_array()) return bad(path, "must be an array of non-negative integers");
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_unsigned()) return bad(path + "/" + std::to_string(i), "must be a non-negative integer");
    out.push_back(static_cast<std::size_t>(v[i].get<std::uint64_t>()));
  }
  return out;
}

common::Result<MagConfig> parse_config(const Json& c) {
  const std::string p = "/config";
  if (auto s = only_keys(c, p, {"vocab", "d", "heads", "seq_len", "window", "rule", "periods", "seed", "d_h", "m",
                                "d_c", "lambda_k", "lambda_v", "lambda_2", "lambda_loc", "huber_delta", "p", "a_s",
                                "lattice_variant", "schedule"});
      !s.ok()) {
    return s.error();
  }
  MagConfig cfg;
  for (auto [key, field] : {std::pair{"vocab", &cfg.vocab}, std::pair{"d", &cfg.d}, std::pair{"heads", &cfg.heads},
                            std::pair{"seq_len", &cfg.seq_len}, std::pair{"window", &cfg.window}}) {
    auto v = size_at(c, p, key);
    if (!v.ok()) return v.error();
    *field = *v;
  }
  if (!c.contains("rule") || !c.at("rule").is_string()) return bad(p + "/rule", "must be a rule name string");
  const auto key = tape::opaque::parse_opaque_key(c.at("rule").get<std::string>());
  bool found = false;
  for (RuleKind k : kAllRuleKinds) {
    if (key && active_key(k) == *key) cfg.rule = k, found = true;
  }
  if (!found) return bad(p + "/rule", "unknown rule \"" + c.at("rule").get<std::string>() + "\"");
  if (!c.contains("periods")) return bad(p + "/periods", "missing");
  auto periods = sizes_at(c.at("periods"), p + "/periods");
  if (!periods.ok()) return periods.error();
  cfg.periods = *periods;
  if (c.contains("seed")) {
    auto seed = size_at(c, p, "seed");
    if (!seed.ok()) return seed.error();
    cfg.seed = *seed;
  }
  RuleConfig& r = cfg.rule_cfg;
  r.d = cfg.d;
  for (auto [key, field] : {std::pair{"d_h", &r.d_h}, std::pair{"m", &r.m}, std::pair{"d_c", &r.d_c}}) {
    if (!c.contains(key)) continue;
    auto v = size_at(c, p, key);
    if (!v.ok()) return v.error();
    *field = *v;
  }
  for (auto [key, field] : {std::pair{"lambda_k", &r.lambda_k}, std::pair{"lambda_v", &r.lambda_v},
                            std::pair{"lambda_2", &r.lambda_2}, std::pair{"lambda_loc", &r.lambda_loc},
                            std::pair{"huber_delta", &r.huber_delta}, std::pair{"p", &r.p}, std::pair{"a_s", &r.a_s}}) {
    auto v = number_at(c, p, key, *field);
    if (!v.ok()) return v.error();
    *field = *v;
  }
  if (c.contains("schedule")) {
    const Json& v = c.at("schedule");
    const std::string s = v.is_string() ? v.get<std::string>() : "";
    if (s == "learned") {
      cfg.schedule = FrequencySchedule::learned;
    } else if (s != "fixed") {
      return bad(p + "/schedule", "must be \"fixed\" or \"learned\"");
    }
  }
  if (c.contains("lattice_variant")) {
    const Json& v = c.at("lattice_variant");
    const std::string s = v.is_string() ? v.get<std::string>() : "";
    if (s == "decode") r.lattice_variant = LatticeVariant::decode;
    else if (s == "encode") r.lattice_variant = LatticeVariant::encode;
    else if (s == "similarity") r.lattice_variant = LatticeVariant::similarity;
    else return bad(p + "/lattice_variant", "must be \"decode\", \"encode\" or \"similarity\"");
  }
  if (auto s = validate(cfg); !s.ok()) return bad(p, s.error().message());
  return cfg;
}

common::Status parse_parameters(const Json& arr, const MagConfig& cfg, MagParams<float>& params) {
  const std::string p = "/parameters";
  if (!arr.is_array()) return bad(p, "must be an array of {name, shape, data}");
  params = MagParams<float>::zeros(cfg);
  std::map<std::string, NamedTensor> expected;
  for (NamedTensor& t : named_tensors(cfg, params)) expected.emplace(t.name, t);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string at = p + "/" + std::to_string(i);
    const Json& e = arr[i];
    if (auto s = only_keys(e, at, {"name", "shape", "data"}); !s.ok()) return s;
    if (!e.contains("name") || !e.at("name").is_string()) return bad(at + "/name", "must be a parameter name string");
    const std::string name = e.at("name").get<std::string>();
    const auto it = expected.find(name);
    if (it == expected.end()) return bad(at + "/name", "unknown parameter \"" + name + "\" for this configuration");
    if (!seen.insert(name).second) return bad(at + "/name", "parameter \"" + name + "\" appears twice");
    if (!e.contains("shape")) return bad(at + "/shape", "missing");
    auto shape = sizes_at(e.at("shape"), at + "/shape");
    if (!shape.ok()) return shape.error();
    if (*shape != it->second.shape) {
      std::string want = "[";
      for (std::size_t k = 0; k < it->second.shape.size(); ++k) want += (k ? "," : "") + std::to_string(it->second.shape[k]);
      return bad(at + "/shape", "parameter \"" + name + "\" must have shape " + want + "]");
    }
    if (!e.contains("data")) return bad(at + "/data", "missing");
    if (auto s = floats_into(e.at("data"), at + "/data", it->second.data); !s.ok()) return s;
  }
  for (const auto& [name, t] : expected) {
    if (!seen.contains(name)) return bad(p, "missing parameter \"" + name + "\"");
  }
  return {};
}

}  // namespace

common::Result<StateInput> parse_state(const Json& doc) {
  if (auto s = only_keys(doc, "", {"format", "config", "parameters", "tokens", "context", "step"}); !s.ok()) {
    return s.error();
  }
  if (!doc.contains("format") || doc.at("format") != kStateFormat) {
    return bad("/format", std::string("must be \"") + kStateFormat + "\"");
  }
  StateInput in;
  if (!doc.contains("config")) return bad("/config", "missing");
  auto cfg = parse_config(doc.at("config"));
  if (!cfg.ok()) return cfg.error();
  in.cfg = std::move(*cfg);
  if (!doc.contains("parameters")) return bad("/parameters", "missing");
  if (auto s = parse_parameters(doc.at("parameters"), in.cfg, in.params); !s.ok()) return s.error();
  if (!doc.contains("tokens")) return bad("/tokens", "missing");
  const Json& tokens = doc.at("tokens");
  if (auto s = only_keys(tokens, "/tokens", {"ids", "targets"}); !s.ok()) return s.error();
  for (auto [key, field] : {std::pair{"ids", &in.ids}, std::pair{"targets", &in.targets}}) {
    const std::string at = std::string("/tokens/") + key;
    if (!tokens.contains(key)) return bad(at, "missing");
    auto v = sizes_at(tokens.at(key), at);
    if (!v.ok()) return v.error();
    if (v->size() != in.cfg.seq_len) {
      return bad(at, "holds " + std::to_string(v->size()) + " tokens; expected seq_len=" + std::to_string(in.cfg.seq_len));
    }
    *field = std::move(*v);
  }
  for (std::size_t t = 0; t < in.ids.size(); ++t) {
    if (in.ids[t] >= in.cfg.vocab) return bad("/tokens/ids/" + std::to_string(t), "token must be < vocab");
  }
  if (doc.contains("context")) {
    const Json& c = doc.at("context");
    if (!c.is_array() || c.size() != in.cfg.levels()) {
      return bad("/context", "must be an array of " + std::to_string(in.cfg.levels()) + " per-level states");
    }
    ContextMemory<float> ctx;
    for (std::size_t l = 0; l < c.size(); ++l) {
      std::vector<float>& level = ctx.levels.emplace_back(state_size(in.cfg.rule, in.cfg.rule_cfg));
      if (auto s = floats_into(c[l], "/context/" + std::to_string(l), level); !s.ok()) return s.error();
    }
    in.context = std::move(ctx);
  }
  if (doc.contains("step")) {
    auto step = size_at(doc, "", "step");
    if (!step.ok()) return step.error();
    in.step = *step;
  }
  return in;
}

}  // namespace nl
