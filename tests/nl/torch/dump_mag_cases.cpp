// Writes MAG model cases (DeltaRule and TitansLMM, k = 1 and 2, mixed active/frozen levels; one
// with vocab 1000 beside the default 16) with
// their fp32 parameters, tokens, context memory, pulse, and our loss and gradients through the
// tape path, as JSON for mag_crosscheck.py, which rebuilds the model from the specification in
// PyTorch and compares. Usage: nl_torch_dump OUT.json      (exit 0 written, 2 usage or I/O error)
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nl/register_opaque_vjps.hpp"
#include "nl/traced_cms_forward.hpp"
#include "nl/unit_norm.hpp"

namespace {

using nlohmann::json;

json tensor(const std::vector<float>& data, std::vector<std::size_t> shape) {
  return json{{"shape", shape}, {"data", data}};
}

json level_json(const nl::LevelParams<float>& l, std::size_t d) {
  return json{{"W_K", tensor(l.w_k, {d, d})},          {"W_V", tensor(l.w_v, {d, d})},
              {"W_Q", tensor(l.w_q, {d, d})},          {"w_alpha", tensor(l.w_alpha, {2 * d})},
              {"w_theta", tensor(l.w_theta, {2 * d})}, {"w_eta", tensor(l.w_eta, {2 * d})},
              {"b_alpha", l.b_alpha},                  {"b_theta", l.b_theta},
              {"b_eta", l.b_eta}};
}

json params_json(const nl::MagConfig& cfg, const nl::MagParams<float>& p, const std::vector<nl::LevelParams<float>>& levels) {
  const std::size_t d = cfg.d, v = cfg.vocab;
  json j{{"E", tensor(p.e, {v, d})},     {"W_Q", tensor(p.w_q, {d, d})}, {"W_K", tensor(p.w_k, {d, d})},
         {"W_V", tensor(p.w_v, {d, d})}, {"W_O", tensor(p.w_o, {d, d})}, {"U_emb", tensor(p.u_emb, {d, v})}};
  j["levels"] = json::array();
  for (const auto& l : levels) j["levels"].push_back(level_json(l, d));
  return j;
}

json make_case(const tape::opaque::OpaqueRegistry& registry, nl::RuleKind rule, std::size_t k, unsigned seed,
               std::size_t vocab = 16) {
  nl::MagConfig cfg;
  cfg.rule = rule;
  cfg.vocab = vocab;
  cfg.periods = k == 1 ? std::vector<std::size_t>{1} : std::vector<std::size_t>{1, 8};
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  // Stress variant (nltrain-math §11): gate biases 0, weights x3, so memory gradients are large.
  for (std::vector<float>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb})
    for (float& x : *t) x *= 3;
  for (auto& l : p.levels) {
    for (std::vector<float>* t : {&l.w_k, &l.w_v, &l.w_q, &l.w_alpha, &l.w_theta, &l.w_eta})
      for (float& x : *t) x *= 3;
    l.b_alpha = l.b_theta = l.b_eta = 0;
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  nl::ContextMemory<float> ctx = nl::ContextMemory<float>::initial(cfg);
  for (auto& level : ctx.levels)
    for (float& x : level) x = u(rng);
  std::vector<std::size_t> ids(cfg.seq_len), tg(cfg.seq_len);
  // Spread over the vocabulary (a stride of 1 at the default 16, so those cases keep their ids).
  const std::size_t stride = cfg.vocab / 16;
  for (std::size_t t = 0; t < cfg.seq_len; ++t) {
    ids[t] = (5 * t + seed) * stride % cfg.vocab, tg[t] = (5 * t + seed + 1) * stride % cfg.vocab;
  }
  tg[1] = cfg.vocab;  // an ignored target
  nl::Pulse pulse;
  for (std::size_t l = 0; l < k; ++l) pulse.active.push_back(l % 2 == 0);
  const auto r = nl::tape_gradients(registry, cfg, p, ids, tg, pulse, ctx);
  if (!r.ok()) throw std::runtime_error(r.error().message());
  std::vector<nl::LevelParams<float>> grad_levels;  // frozen levels: their error-buffer contribution
  for (std::size_t l = 0; l < k; ++l) grad_levels.push_back(pulse.is_active(l) ? r->grads.params.levels[l] : r->grads.error[l]);
  return json{{"rule", std::string(nl::to_string(rule))},
              {"config", {{"vocab", cfg.vocab}, {"d", cfg.d}, {"heads", cfg.heads}, {"seq_len", cfg.seq_len},
                          {"window", cfg.window}}},
              {"ids", ids},
              {"targets", tg},
              {"pulse", pulse.active},
              {"context", ctx.levels},
              {"params", params_json(cfg, p, p.levels)},
              {"loss", r->loss},
              {"grads", params_json(cfg, r->grads.params, grad_levels)}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: nl_torch_dump OUT.json\n";
    return 2;
  }
  try {
    tape::opaque::OpaqueRegistry registry;
    if (!nl::register_opaque_vjps(registry).ok()) throw std::runtime_error("registry");
    json cases = json::array();
    for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::titans})
      for (std::size_t k : {1, 2}) cases.push_back(make_case(registry, rule, k, 3 + static_cast<unsigned>(k)));
    // A vocabulary of 1000 (nltrain train --vocab 1000): E and U_emb follow it, ids above 255.
    cases.push_back(make_case(registry, nl::RuleKind::delta, 2, 5, 1000));
    std::ofstream out(argv[1]);
    out << json{{"cases", cases}}.dump() << '\n';
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "nl_torch_dump: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
