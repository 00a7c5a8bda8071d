// nl_adamw_dump: runs nltrain's FrequencyAwareAdamW for 10 steps on a small model's parameters
// with fixed gradients and prints, as JSON, everything an independent AdamW needs to redo it
// (the initial parameters, each step's gradients and learning rate, the optimizer settings)
// and nltrain's result (parameters, first and second moments). tests/nl/torch/adamw_check.py
// recomputes it with torch.optim.AdamW in float64.
#include <cmath>
#include <iostream>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "nl/adamw.hpp"
#include "nl/conductor.hpp"
#include "nl/mag_params.hpp"

int main() {
  nl::MagConfig cfg;
  cfg.vocab = 16, cfg.d = 8, cfg.heads = 2, cfg.seq_len = 4, cfg.window = 4, cfg.periods = {1};
  cfg.rule = nl::RuleKind::delta;
  cfg.rule_cfg.d = 8, cfg.rule_cfg.d_h = 4, cfg.rule_cfg.m = 4, cfg.rule_cfg.d_c = 8;
  nl::AdamWConfig opt;  // §10's defaults: beta1 0.9, beta2 0.999, eps 1e-8, wd 0.1
  opt.lr = 1e-3, opt.warmup = 0, opt.total_steps = 10;
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const std::size_t n = p.to_flat().size();
  nl::FrequencyAwareAdamW adamw(cfg, opt);
  const nl::Pulse all{{true}};
  nlohmann::json out{{"beta1", opt.beta1}, {"beta2", opt.beta2}, {"eps", opt.eps}, {"weight_decay", opt.weight_decay},
                     {"theta0", p.to_flat()}, {"steps", nlohmann::json::array()}};
  for (int step = 0; step < 10; ++step) {
    // Gradients of both signs and magnitudes 1e-4..1e-1, none zero.
    std::vector<float> g(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double mag = std::pow(10.0, -1.0 - 3.0 * static_cast<double>((i * 7 + step * 3) % 11) / 10.0);
      g[i] = static_cast<float>(((i + step) % 3 == 0 ? -1.0 : 1.0) * mag);
    }
    const nl::MagParams<float> grads = nl::MagParams<float>::from_flat(cfg, std::span<const float>(g));
    const double lr = opt.lr * (1.0 - 0.05 * step);
    adamw.step(p, grads, all, lr);
    out["steps"].push_back({{"grad", g}, {"lr", lr}});
  }
  const nl::AdamWState s = adamw.state();
  out["theta"] = p.to_flat(), out["m"] = s.m.to_flat(), out["v"] = s.v.to_flat();
  std::cout << out.dump() << "\n";
  return 0;
}
