// The writers of the JSON state and result, and evaluate_state (state_json.hpp).
#include <string>

#include "nl/named_tensors.hpp"
#include "nl/state_json.hpp"
#include "nl/cms_backward.hpp"
#include "nl/traced_cms_forward.hpp"

namespace nl {
namespace {

using Json = nlohmann::ordered_json;

// A float widened to double is exact; the writer's shortest round-trip form of that double reads
// back to the same double, so the float survives.
Json floats(std::span<const float> v) {
  Json a = Json::array();
  for (float x : v) a.push_back(static_cast<double>(x));
  return a;
}

Json named(const std::vector<NamedTensor>& tensors) {
  Json a = Json::array();
  for (const NamedTensor& t : tensors) {
    a.push_back(Json{{"name", t.name}, {"shape", t.shape}, {"data", floats(t.data)}});
  }
  return a;
}

const char* variant_name(LatticeVariant v) {
  switch (v) {
    case LatticeVariant::encode: return "encode";
    case LatticeVariant::similarity: return "similarity";
    case LatticeVariant::decode: break;
  }
  return "decode";
}

Json context_json(const ContextMemory<float>& c) {
  Json a = Json::array();
  for (const auto& l : c.levels) a.push_back(floats(l));
  return a;
}

}  // namespace

Json config_to_json(const MagConfig& c) {
  const RuleConfig& r = c.rule_cfg;
  Json j{{"vocab", c.vocab}, {"d", c.d}, {"heads", c.heads}, {"seq_len", c.seq_len}, {"window", c.window},
         {"rule", std::string(to_string(c.rule))}, {"periods", c.periods}, {"seed", c.seed}, {"d_h", r.d_h},
         {"m", r.m}, {"d_c", r.d_c}, {"lambda_k", r.lambda_k}, {"lambda_v", r.lambda_v},
         {"lambda_2", r.lambda_2}, {"lambda_loc", r.lambda_loc}, {"huber_delta", r.huber_delta}, {"p", r.p},
         {"a_s", r.a_s}, {"lattice_variant", variant_name(r.lattice_variant)}};
  if (c.learned_schedule()) j["schedule"] = "learned";  // absent: fixed (older files' bytes)
  return j;
}

Json state_to_json(const StateInput& in) {
  const MagConfig& c = in.cfg;
  Json doc{{"format", kStateFormat}, {"config", config_to_json(c)}};
  MagParams<float> p = in.params;
  doc["parameters"] = named(named_tensors(c, p));
  doc["tokens"] = Json{{"ids", in.ids}, {"targets", in.targets}};
  if (in.context) doc["context"] = context_json(*in.context);
  doc["step"] = in.step;
  return doc;
}

common::Result<StateResult> evaluate_state(const tape::opaque::OpaqueRegistry& registry, const StateInput& in) {
  StateResult r;
  r.pulse = Conductor(in.cfg.periods, in.step).pulse();
  const ContextMemory<float> ctx = in.context ? *in.context : ContextMemory<float>::initial(in.cfg);
  auto g = tape_gradients(registry, in.cfg, in.params, in.ids, in.targets, r.pulse, ctx);
  if (!g.ok()) return g.error();
  r.loss = g->loss;
  r.pulse = g->pulse;  // a learned schedule's gate picks the levels
  r.gradients = std::move(g->grads.params);
  r.error = std::move(g->grads.error);
  r.context_after = std::move(g->context_after);
  return r;
}

Json result_to_json(const MagConfig& cfg, const StateResult& r) {
  Json doc{{"format", kStateResultFormat}, {"loss", static_cast<double>(r.loss)}, {"pulse", r.pulse.active}};
  MagParams<float> g = r.gradients;
  doc["gradients"] = named(named_tensors(cfg, g));
  std::vector<NamedTensor> frozen;
  std::vector<LevelParams<float>> error = r.error;
  for (std::size_t l = 0; l < error.size(); ++l) {
    if (r.pulse.is_active(l)) continue;
    for (NamedTensor& t : named_level_tensors(cfg, l, error[l])) frozen.push_back(t);
  }
  doc["error_buffer"] = named(frozen);
  doc["context_after"] = context_json(r.context_after);
  return doc;
}

namespace {

// Named like `views` (named_tensors order, which is the flat order), valued from `flat`.
Json named_doubles(const std::vector<NamedTensor>& views, const std::vector<double>& flat) {
  Json a = Json::array();
  std::size_t at = 0;
  for (const NamedTensor& t : views) {
    Json data = Json::array();
    for (std::size_t i = 0; i < t.data.size(); ++i) data.push_back(flat[at + i]);
    at += t.data.size();
    a.push_back(Json{{"name", t.name}, {"shape", t.shape}, {"data", std::move(data)}});
  }
  return a;
}

}  // namespace

Json result_to_json_fp64(const MagConfig& cfg, const Pulse& pulse, double loss, const MagGradients<double>& g,
                         const ContextMemory<double>& context_after) {
  Json doc{{"format", kStateResultFormat}, {"loss", loss}, {"pulse", pulse.active}};
  MagParams<float> names = MagParams<float>::zeros(cfg);
  doc["gradients"] = named_doubles(named_tensors(cfg, names), g.params.to_flat());
  Json frozen = Json::array();
  for (std::size_t l = 0; l < g.error.size(); ++l) {
    if (pulse.is_active(l)) continue;
    LevelParams<float> level = LevelParams<float>::zeros(cfg.d, has_omega(cfg.rule));
    for (Json& t : named_doubles(named_level_tensors(cfg, l, level), g.error[l].to_flat())) frozen.push_back(std::move(t));
  }
  doc["error_buffer"] = std::move(frozen);
  Json ctx = Json::array();
  for (const auto& l : context_after.levels) ctx.push_back(l);
  doc["context_after"] = std::move(ctx);
  return doc;
}

}  // namespace nl
