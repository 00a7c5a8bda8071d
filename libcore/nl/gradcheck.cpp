#include "nl/gradcheck.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"
#include "nl/frequency_gate.hpp"
#include "nl/named_tensors.hpp"
#include "nl/traced_cms_forward.hpp"
#include "nl/unit_norm.hpp"

namespace nl {
namespace {

MagConfig verification_config(RuleKind rule, std::size_t k) {
  MagConfig cfg;
  cfg.vocab = 16, cfg.d = 8, cfg.heads = 2, cfg.seq_len = 4, cfg.window = 4;
  cfg.rule = rule;
  cfg.rule_cfg.d = 8, cfg.rule_cfg.d_h = 4, cfg.rule_cfg.m = 4, cfg.rule_cfg.d_c = 8;
  cfg.rule_cfg.lambda_k = cfg.rule_cfg.lambda_v = 0.01;
  cfg.rule_cfg.lambda_loc = rule == RuleKind::yaad ? 0.01 : 0.0;
  cfg.periods.clear();
  std::size_t c = 1;
  for (std::size_t l = 0; l < k; ++l, c *= 8) cfg.periods.push_back(c);
  return cfg;
}

// §11's bias tweaks, so the memory levels' gradients clear the FD floor.
void protocol_tweaks(RuleKind rule, MagParams<float>& p) {
  const bool theta0 = rule == RuleKind::delta || rule == RuleKind::titans || rule == RuleKind::trellis ||
                      rule == RuleKind::atlas;
  for (LevelParams<float>& l : p.levels) {
    l.b_alpha = 0;
    if (theta0) l.b_theta = 0;
    if (rule == RuleKind::titans || rule == RuleKind::atlas) l.b_eta = 0;
  }
}

void stress_tweaks(MagParams<float>& p) {
  for (std::vector<float>* t : {&p.e, &p.w_q, &p.w_k, &p.w_v, &p.w_o, &p.u_emb})
    for (float& x : *t) x *= 3;
  for (LevelParams<float>& l : p.levels) {
    for (std::vector<float>* t : {&l.w_k, &l.w_v, &l.w_q, &l.w_alpha, &l.w_theta, &l.w_eta, &l.w_omega})
      for (float& x : *t) x *= 3;
    l.b_alpha = l.b_theta = l.b_eta = 0;
  }
}

// A random state of the right kind: unit rows for Lattice, row-stochastic factors for MEMORA.
std::vector<float> random_state(RuleKind kind, const RuleConfig& cfg, std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-0.5, 0.5);
  std::vector<double> s(state_size(kind, cfg));
  for (double& x : s) x = dist(rng);
  if (kind == RuleKind::lattice) {
    for (std::size_t i = 0; i < cfg.m; ++i) (void)unit_norm_forward(&s[i * cfg.d], cfg.d, &s[i * cfg.d]);
  }
  if (kind == RuleKind::memora) {
    auto rows = [&](std::size_t offset, std::size_t n_rows, std::size_t len) {
      for (std::size_t r = 0; r < n_rows; ++r) {
        double* row = &s[offset + r * len];
        double sum = 0;
        for (std::size_t c = 0; c < len; ++c) sum += (row[c] = std::exp(2 * row[c]));
        for (std::size_t c = 0; c < len; ++c) row[c] /= sum;
      }
    };
    rows(0, cfg.d_h, cfg.d);
    rows(cfg.d_h * cfg.d, cfg.d, cfg.d_h);
  }
  return {s.begin(), s.end()};
}

// The gradient of the loss with respect to every parameter: frozen levels' error-buffer
// contributions in place of their (zero) returned gradients.
template <typename T>
std::vector<T> full_gradient(const MagGradients<T>& g, const Pulse& pulse) {
  MagParams<T> merged = g.params;
  for (std::size_t l = 0; l < merged.levels.size(); ++l)
    if (!pulse.is_active(l)) merged.levels[l] = g.error[l];
  return merged.to_flat();
}

// The straight-through term cms_backward adds to E's gradient: the gate's logit adjoints (which
// are b_freq's gradient) carried back through x-bar to the embedding rows, as an E-sized vector.
template <typename T>
std::vector<T> straight_through_e(const MagConfig& cfg, const MagParams<T>& p, const MagForward<T>& f,
                                  const std::vector<T>& g_b_freq) {
  const std::size_t s = cfg.seq_len, d = cfg.d, g = cfg.gated_levels();
  std::vector<T> g_w(g * d, T(0)), g_b(g, T(0)), g_x(s * d, T(0)), g_e(p.e.size(), T(0));
  frequency_gate_backward<T>(s, d, p.w_freq, f.freq, g_b_freq, g_w, g_b, g_x);
  for (std::size_t t = 0; t < s; ++t)
    for (std::size_t j = 0; j < d; ++j) g_e[f.ids[t] * d + j] += g_x[t * d + j];
  return g_e;
}

template <typename T>
ContextMemory<T> cast_context(const ContextMemory<float>& c) {
  ContextMemory<T> out;
  for (const auto& l : c.levels) out.levels.emplace_back(l.begin(), l.end());
  return out;
}

std::string entry(const std::string& name, std::size_t i, double a, double fd) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s[%zu] analytic %.9g fd %.9g", name.c_str(), i, a, fd);
  return buf;
}

// The flat offset of the perturbed entry (named_tensors order, as to_flat()).
common::Result<std::size_t> perturbed_offset(const MagConfig& cfg, const GradientPerturbation& g) {
  if (!std::isfinite(g.amount) || g.amount == 0) {
    return common::Error::invalid_argument("perturbation amount must be finite and non-zero");
  }
  MagParams<float> shapes = MagParams<float>::zeros(cfg);
  std::size_t off = 0;
  for (const NamedTensor& t : named_tensors(cfg, shapes)) {
    if (t.name == g.tensor) {
      if (g.index >= t.data.size()) {
        return common::Error::invalid_argument("perturbation index " + std::to_string(g.index) + " is beyond " +
                                               t.name + " (" + std::to_string(t.data.size()) + " entries)");
      }
      return off + g.index;
    }
    off += t.data.size();
  }
  return common::Error::invalid_argument("perturbation names no parameter tensor: '" + g.tensor + "'");
}

}  // namespace

bool GradcheckReport::passed() const {
  return gate_failure.empty() && std::all_of(tensors.begin(), tensors.end(), [](const TensorCheck& t) { return t.passed(); });
}

common::Result<GradcheckReport> gradcheck(const tape::opaque::OpaqueRegistry& registry, const GradcheckOptions& opt) {
  if (opt.levels == 0 || opt.levels > 8) {
    return common::Error::invalid_argument("levels must be in 1..8 (got " + std::to_string(opt.levels) + ")");
  }
  GradcheckReport rep;
  rep.opt = opt;
  rep.cfg = verification_config(opt.rule, opt.levels);
  rep.cfg.schedule = opt.schedule;
  const MagConfig& cfg = rep.cfg;
  if (common::Status v = validate(cfg); !v.ok()) return v.error();
  const bool learned = cfg.learned_schedule();
  std::optional<std::size_t> perturbed;
  if (opt.perturb) {
    auto at = perturbed_offset(cfg, *opt.perturb);
    if (!at.ok()) return at.error();
    perturbed = *at;
  }
  MagParams<float> p = MagParams<float>::init(cfg);
  ContextMemory<float> ctx = ContextMemory<float>::initial(cfg);
  Pulse pulse;
  pulse.active.assign(opt.levels, true);
  if (opt.stress) {
    stress_tweaks(p);
    std::mt19937 rng(5);
    for (auto& l : ctx.levels) l = random_state(cfg.rule, cfg.rule_cfg, rng);
    for (std::size_t l = 0; l < opt.levels; ++l) pulse.active[l] = l % 2 == 0;
  } else {
    protocol_tweaks(opt.rule, p);
  }
  // The gate's bias decides its choice (|x-bar . W_freq| stays far below 4 here): the same
  // levels on as the fixed pulse above.
  for (std::size_t i = 0; i < p.b_freq.size(); ++i) p.b_freq[i] = pulse.is_active(i + 1) ? 4.0f : -4.0f;
  std::vector<std::size_t> ids(cfg.seq_len), tg(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) ids[t] = t % cfg.vocab, tg[t] = (t + 1) % cfg.vocab;

  auto f = cms_forward<float>(cfg, p, ids, tg, pulse, ctx);
  if (!f.ok()) return f.error();
  rep.loss = f->loss;
  pulse = f->pulse;  // a learned schedule: the gate's choice
  rep.active = pulse.active;
  const MagGradients<float> hand_g = cms_backward<float>(cfg, p, *f);
  std::vector<float> hand = full_gradient(hand_g, pulse);
  if (perturbed) hand[*perturbed] += static_cast<float>(opt.perturb->amount);
  auto tg_res = tape_gradients(registry, cfg, p, ids, tg, pulse, ctx);
  if (!tg_res.ok()) return tg_res.error();
  if (tg_res->pulse.active != pulse.active) rep.gate_failure = "the tape's frequency gate chose other levels than the hand-written forward";
  const std::vector<float> tape = full_gradient(tg_res->grads, pulse);

  // Analytic gradient and loss function of the FD check, in the chosen precision. Under a learned
  // schedule the loss holds the gate's mask at `mask` (see gradcheck.hpp) and E's analytic
  // gradient drops the straight-through term.
  std::vector<double> analytic, x, mask, x_bar;
  std::function<double(const std::vector<double>&, const std::vector<double>&)> loss;
  const MagParams<double> p64 = p.cast<double>();
  const ContextMemory<double> ctx64 = cast_context<double>(ctx);
  if (opt.fp64) {
    auto f64 = cms_forward<double>(cfg, p64, ids, tg, pulse, ctx64);
    if (!f64.ok()) return f64.error();
    if (f64->pulse.active != pulse.active) rep.gate_failure = "the fp64 frequency gate chose other levels than the fp32 one";
    const MagGradients<double> g64 = cms_backward<double>(cfg, p64, *f64);
    analytic = full_gradient(g64, pulse);
    if (learned) {
      const std::vector<double> st = straight_through_e<double>(cfg, p64, *f64, g64.params.b_freq);
      for (std::size_t i = 0; i < st.size(); ++i) analytic[i] -= st[i];  // E is first in the flat order
      mask = f64->freq.mask, x_bar = f64->freq.x_bar;
    }
    if (perturbed) analytic[*perturbed] += opt.perturb->amount;
    x = p64.to_flat();
    loss = [&](const std::vector<double>& flat, const std::vector<double>& m) {
      const MagParams<double> q = MagParams<double>::from_flat(cfg, flat);
      auto r = learned ? cms_forward_with_mask<double>(cfg, q, ids, tg, std::span<const double>(m), ctx64)
                       : cms_forward<double>(cfg, q, ids, tg, pulse, ctx64);
      return r.ok() ? r->loss : std::nan("");
    };
  } else {
    analytic.assign(hand.begin(), hand.end());
    if (learned) {
      const std::vector<float> st = straight_through_e<float>(cfg, p, *f, hand_g.params.b_freq);
      for (std::size_t i = 0; i < st.size(); ++i) analytic[i] -= st[i];
      mask.assign(f->freq.mask.begin(), f->freq.mask.end());
      x_bar.assign(f->freq.x_bar.begin(), f->freq.x_bar.end());
    }
    x = p64.to_flat();
    loss = [&](const std::vector<double>& flat, const std::vector<double>& m) {
      const std::vector<float> ff(flat.begin(), flat.end()), mf(m.begin(), m.end());
      const MagParams<float> q = MagParams<float>::from_flat(cfg, ff);
      auto r = learned ? cms_forward_with_mask<float>(cfg, q, ids, tg, std::span<const float>(mf), ctx)
                       : cms_forward<float>(cfg, q, ids, tg, pulse, ctx);
      return r.ok() ? static_cast<double>(r->loss) : std::nan("");
    };
  }
  // dL/dm_i by central differences in the mask (the selection is linear in m), once per level.
  std::vector<double> fd_mask(mask.size());
  for (std::size_t i = 0; i < mask.size(); ++i) {
    std::vector<double> m = mask;
    m[i] = mask[i] + (opt.fp64 ? 1e-6 : 1e-2);
    const double hi = loss(x, m);
    m[i] = mask[i] - (opt.fp64 ? 1e-6 : 1e-2);
    const double lo = loss(x, m);
    fd_mask[i] = (hi - lo) / (2 * (opt.fp64 ? 1e-6 : 1e-2));
  }
  const double eps = opt.fp64 ? 1e-6 : 1e-2;

  std::size_t off = 0;
  MagParams<float> shapes = MagParams<float>::zeros(cfg);
  for (const NamedTensor& t : named_tensors(cfg, shapes)) {
    TensorCheck c;
    c.name = t.name;
    c.size = t.data.size();
    if (c.name.rfind("levels/", 0) == 0) {
      const std::size_t l = std::stoul(c.name.substr(7));
      c.frozen = !pulse.is_active(l);
    }
    // The floor for entries near zero is a fraction of the tensor's own scale, not an absolute
    // number: level gradients are often 1e-9..1e-5, where an absolute 1e-6 let anything pass.
    double scale = 0;
    for (std::size_t i = 0; i < c.size; ++i) scale = std::max({scale, std::fabs(double(hand[off + i])), std::fabs(double(tape[off + i]))});
    const double floor = kTapeFloorOfScale * scale;
    for (std::size_t i = 0; i < c.size; ++i) {
      const double h = hand[off + i], tp = tape[off + i];
      c.max_abs_grad = std::max(c.max_abs_grad, std::fabs(h));
      const double den = std::max({std::fabs(h), std::fabs(tp), 1e-12});
      c.tape_vs_hand = std::max(c.tape_vs_hand, std::fabs(tp - h) / den);
      if (!(std::fabs(tp - h) <= kTapeRelative * std::max(std::fabs(h), std::fabs(tp)) + floor)) {
        if (c.tape_failed++ == 0 && c.first_failure.empty()) c.first_failure = "tape " + entry(c.name, i, tp, h) + " (hand)";
      }
    }
    // fp64: every entry; fp32: 20 at stride max(1, n/20) (a scalar: itself).
    const std::size_t stride = opt.fp64 ? 1 : std::max<std::size_t>(1, c.size / 20);
    for (std::size_t i = 0; i < c.size && (opt.fp64 || i / stride < 20); i += stride) {
      const std::size_t j = off + i;
      double fd = 0;
      if (c.name == "b_freq") {
        fd = fd_mask[i];
      } else if (c.name == "W_freq") {
        fd = fd_mask[i / cfg.d] * x_bar[i % cfg.d];
      } else {
        const double keep = x[j];
        x[j] = keep + eps;
        const double hi = loss(x, mask);
        x[j] = keep - eps;
        const double lo = loss(x, mask);
        x[j] = keep;
        fd = (hi - lo) / (2 * eps);
      }
      const double a = analytic[j];
      const double den = std::max(std::fabs(a), std::fabs(fd));
      const double diff = std::fabs(a - fd);
      ++c.fd_checked;
      if (!opt.fp64 && den < 5e-4) {  // §11's floor: below it fp32 FD is noise, not evidence
        ++c.fd_skipped;
        continue;
      }
      ++c.fd_compared;
      const bool ok = opt.fp64 ? diff <= 1e-4 * den + 1e-8 : diff / den < 0.10;
      c.fd_worst_abs = std::max(c.fd_worst_abs.value_or(0.0), diff);
      if (den > 0) c.fd_worst_rel = std::max(c.fd_worst_rel.value_or(0.0), diff / den);
      if (!ok) {
        if (c.fd_failed++ == 0 && c.first_failure.empty()) c.first_failure = entry(c.name, i, a, fd);
      }
    }
    off += c.size;
    rep.tensors.push_back(std::move(c));
  }
  return rep;
}

}  // namespace nl
