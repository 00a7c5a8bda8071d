#include "nl/trainer.hpp"

#include <cmath>

#include "nl/cms_backward.hpp"
#include "nl/cms_forward.hpp"
#include "nl/named_tensors.hpp"
#include "nl/traced_cms_forward.hpp"

namespace nl {
namespace {

// A non-finite gradient would poison the parameters and the optimizer state for good: refuse the
// step, naming the tensor.
common::Status check_finite(const MagConfig& cfg, MagGradients<float>& g) {
  for (const NamedTensor& t : named_tensors(cfg, g.params)) {
    for (float v : t.data) {
      if (!std::isfinite(v)) return common::Error::invalid_argument("gradient: " + t.name + ": is not finite (NaN or Inf)");
    }
  }
  for (std::size_t l = 0; l < g.error.size(); ++l) {
    for (const NamedTensor& t : named_level_tensors(cfg, l, g.error[l])) {
      for (float v : t.data) {
        if (!std::isfinite(v)) return common::Error::invalid_argument("error buffer: " + t.name + ": is not finite (NaN or Inf)");
      }
    }
  }
  return {};
}

}  // namespace

Trainer::Trainer(MagConfig cfg, MagParams<float> params, AdamWConfig opt)
    : cfg_(std::move(cfg)),
      params_(std::move(params)),
      optimizer_(cfg_, opt),
      conductor_(cfg_.periods),
      context_(ContextMemory<float>::initial(cfg_)),
      buffers_(cfg_.levels(), ErrorBuffer<float>(cfg_.d, has_omega(cfg_.rule))) {}

common::Expected<StepReport, StepError> Trainer::build_step(const tape::opaque::OpaqueRegistry& registry,
                                               std::span<const std::size_t> ids, std::span<const std::size_t> targets,
                                               GradientPath path, StepTrace* trace) {
  StepReport report;
  report.pulse = conductor_.pulse();  // observe ...
  MagGradients<float> grads;
  ContextMemory<float> context_after;
  if (path == GradientPath::tape) {
    auto r = tape_gradients(registry, cfg_, params_, ids, targets, report.pulse, context_);
    if (!r.ok()) return StepError(r.error(), r.error().non_finite() ? StepFailure::non_finite : StepFailure::invalid);
    report.loss = r->loss;
    report.pulse = r->pulse;  // a learned schedule's gate may differ from the conductor
    grads = std::move(r->grads);
    context_after = std::move(r->context_after);
  } else {
    // cms_forward fails on inputs that do not fit or on a non-finite loss; checking the inputs
    // first leaves only the second (the hand-written path serves tests, so the cost is theirs).
    if (common::Status s = check_chunk_inputs(cfg_, params_, ids, targets, report.pulse, context_); !s.ok()) {
      return StepError(s.error(), StepFailure::invalid);
    }
    auto f = cms_forward<float>(cfg_, params_, ids, targets, report.pulse, context_);
    if (!f.ok()) return StepError(f.error(), StepFailure::non_finite);
    report.loss = f->loss;
    report.pulse = f->pulse;
    grads = cms_backward_consuming<float>(cfg_, params_, *f);  // f.context_after stays
    context_after = std::move(f->context_after);
  }
  if (common::Status s = check_finite(cfg_, grads); !s.ok()) return StepError(s.error(), StepFailure::non_finite);
  for (std::size_t l = 0; l < cfg_.levels(); ++l) {
    if (report.pulse.is_active(l)) {
      buffers_[l].apply_to(grads.params.levels[l]);  // O-9: summed in before clipping
    } else {
      buffers_[l].accumulate(grads.error[l]);
    }
  }
  const double lr = learning_rate(optimizer_.config(), conductor_.step());
  if (trace != nullptr) {
    trace->gradients = grads.params;
    trace->error = grads.error;  // active levels' entries are zero
    trace->lr = lr;
  }
  report.grad_norm = clip_global_norm(grads.params, optimizer_.config().clip);
  if (trace != nullptr) {
    trace->grad_norm = report.grad_norm;
    // Every field assigned: a caller may pass the same trace step after step.
    trace->clip_scale = report.grad_norm > optimizer_.config().clip
                            ? std::optional<float>(clip_scale(optimizer_.config().clip, report.grad_norm))
                            : std::nullopt;
  }
  optimizer_.step(params_, grads.params, report.pulse, lr);
  context_ = std::move(context_after);
  conductor_.advance();  // ... then advance
  return report;
}

TrainerState Trainer::state() const {
  TrainerState s{cfg_, optimizer_.config(), params_, optimizer_.state(), conductor_.step(), context_, {}, {}};
  for (const ErrorBuffer<float>& b : buffers_) {
    s.buffer_sums.push_back(b.sum());
    s.buffer_counts.push_back(b.count());
  }
  return s;
}

TrainerState Trainer::take_state() && {
  TrainerState s{cfg_, optimizer_.config(), std::move(params_), std::move(optimizer_).take_state(), conductor_.step(), std::move(context_), {}, {}};
  for (ErrorBuffer<float>& b : buffers_) {
    s.buffer_counts.push_back(b.count());
    s.buffer_sums.push_back(std::move(b).take_sum());
  }
  return s;
}

common::Result<Trainer> Trainer::from_state(TrainerState s) {
  if (common::Status v = validate(s.cfg); !v.ok()) return v.error();
  const MagConfig& cfg = s.cfg;
  auto bad = [](const std::string& what) { return common::Error::malformed("trainer state: " + what); };
  if (!s.params.fits(cfg)) return bad("parameters do not fit the configuration");
  if (!s.adam.m.fits(cfg) || !s.adam.v.fits(cfg) || s.adam.tau_level.size() != cfg.levels()) {
    return bad("optimizer moments do not fit the configuration");
  }
  if (s.context.levels.size() != cfg.levels()) return bad("context memory holds the wrong number of levels");
  for (const auto& l : s.context.levels) {
    if (l.size() != state_size(cfg.rule, cfg.rule_cfg)) return bad("context memory level has the wrong size");
  }
  if (s.buffer_sums.size() != cfg.levels() || s.buffer_counts.size() != cfg.levels()) return bad("error buffers: wrong number of levels");
  for (const auto& b : s.buffer_sums) {
    if (!b.fits(cfg.d, has_omega(cfg.rule))) return bad("error buffer has the wrong size");
  }
  Trainer t(s.cfg, std::move(s.params), s.opt);
  t.optimizer_.restore(std::move(s.adam));
  t.conductor_ = Conductor(t.cfg_.periods, s.step);
  t.context_ = std::move(s.context);
  for (std::size_t l = 0; l < t.cfg_.levels(); ++l) t.buffers_[l].restore(std::move(s.buffer_sums[l]), s.buffer_counts[l]);
  return t;
}

common::Result<float> Trainer::forward_step(std::span<const std::size_t> ids, std::span<const std::size_t> targets) {
  const Pulse pulse = conductor_.pulse();
  auto f = cms_forward<float>(cfg_, params_, ids, targets, pulse, context_);
  if (!f.ok()) return f.error();
  context_ = std::move(f->context_after);
  conductor_.advance();
  return f->loss;
}

}  // namespace nl
