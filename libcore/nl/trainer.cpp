#include "nl/trainer.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "nl/cms_forward.hpp"

namespace nl {

template <typename T>
BasicTrainer<T>::BasicTrainer(MagConfig cfg, MagParams<T> params, AdamWConfig opt, std::size_t batch)
    : cfg_(std::move(cfg)),
      params_(std::move(params)),
      optimizer_(cfg_, opt),
      conductor_(cfg_.periods),
      contexts_(std::max<std::size_t>(batch, 1), ContextMemory<T>::initial(cfg_)),
      buffers_(cfg_.levels(), ErrorBuffer<T>(cfg_.d, has_omega(cfg_.rule))) {}

template <typename T>
common::Expected<BasicStepReport<T>, StepError> BasicTrainer<T>::build_step(const tape::opaque::OpaqueRegistry& registry,
                                               std::span<const std::size_t> ids, std::span<const std::size_t> targets,
                                               GradientPath path, BasicStepTrace<T>* trace) {
  const Sequence one{ids, targets};
  return build_batch_step(registry, std::span(&one, 1), path, nullptr, trace);
}

template <typename T>
common::Expected<BasicStepReport<T>, StepError> BasicTrainer<T>::build_batch_step(const tape::opaque::OpaqueRegistry& registry,
                                                     std::span<const Sequence> batch, GradientPath path,
                                                     common::WorkerPool* pool, BasicStepTrace<T>* trace, BatchShare* share,
                                                     StepObserver* observer, StepSpill* spill) {
  // This process's streams: all of them, or its part of a shared batch.
  const std::size_t first = share != nullptr ? share->first() : 0;
  const std::size_t total = share != nullptr ? share->total() : batch.size();
  if (total != contexts_.size() || first + batch.size() > contexts_.size()) {
    return StepError(common::Error::invalid_argument("build step: " + std::to_string(batch.size()) + " sequences for a trainer of batch " +
                                                     std::to_string(contexts_.size())),
                     StepFailure::invalid);
  }
  BasicStepReport<T> report;
  report.pulse = conductor_.pulse();  // observe ...
  auto r = batch_gradients<T>(registry, cfg_, params_, batch, std::span<const ContextMemory<T>>(contexts_).subspan(first, batch.size()), report.pulse, path,
                           pool, share, observer, spill);
  if (!r.ok()) return r.error();
  const TimedPhase update(observer, StepPhase::optimizer);  // error buffers, clip, AdamW
  report.loss = r->loss;
  report.pulse = r->pulse;  // a learned schedule's gate may differ from the conductor
  MagGradients<T>& grads = r->grads;
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
  // Clip and AdamW: on the host, or on an installed optimizer kernel's device (optimizer_kernel.hpp).
  report.grad_norm = optimizer_.clip_and_step(params_, grads.params, report.pulse, lr, pool);
  if (trace != nullptr) {
    trace->grad_norm = report.grad_norm;
    // Every field assigned: a caller may pass the same trace step after step.
    trace->clip_scale = report.grad_norm > optimizer_.config().clip
                            ? std::optional<T>(clip_scale<T>(optimizer_.config().clip, report.grad_norm))
                            : std::nullopt;
  }
  std::move(r->contexts_after.begin(), r->contexts_after.end(), contexts_.begin() + static_cast<std::ptrdiff_t>(first));
  conductor_.advance();  // ... then advance
  return report;
}

template <typename T>
common::Status BasicTrainer<T>::set_context(std::size_t stream, ContextMemory<T> c) {
  if (stream >= contexts_.size()) return common::Error::invalid_argument("context of stream " + std::to_string(stream) + " in a batch of " + std::to_string(contexts_.size()));
  if (c.levels.size() != cfg_.levels()) return common::Error::malformed("context memory holds the wrong number of levels");
  for (const auto& l : c.levels) {
    if (l.size() != state_size(cfg_.rule, cfg_.rule_cfg)) return common::Error::malformed("context memory level has the wrong size");
  }
  contexts_[stream] = std::move(c);
  return {};
}

template <typename T>
BasicTrainerState<T> BasicTrainer<T>::state() const {
  BasicTrainerState<T> s{cfg_, optimizer_.config(), params_, optimizer_.state(), conductor_.step(), contexts_[0], {}, {}, {}};
  s.more_contexts.assign(contexts_.begin() + 1, contexts_.end());
  for (const ErrorBuffer<T>& b : buffers_) {
    s.buffer_sums.push_back(b.sum());
    s.buffer_counts.push_back(b.count());
  }
  return s;
}

template <typename T>
BasicTrainerState<T> BasicTrainer<T>::take_state() && {
  BasicTrainerState<T> s{cfg_, optimizer_.config(), std::move(params_), std::move(optimizer_).take_state(), conductor_.step(), std::move(contexts_[0]), {}, {}, {}};
  std::move(contexts_.begin() + 1, contexts_.end(), std::back_inserter(s.more_contexts));
  for (ErrorBuffer<T>& b : buffers_) {
    s.buffer_counts.push_back(b.count());
    s.buffer_sums.push_back(std::move(b).take_sum());
  }
  return s;
}

template <typename T>
common::Result<BasicTrainer<T>> BasicTrainer<T>::from_state(BasicTrainerState<T> s) {
  if (common::Status v = validate(s.cfg); !v.ok()) return v.error();
  const MagConfig& cfg = s.cfg;
  auto bad = [](const std::string& what) { return common::Error::malformed("trainer state: " + what); };
  if (!s.params.fits(cfg)) return bad("parameters do not fit the configuration");
  if (!s.adam.m.fits(cfg) || !s.adam.v.fits(cfg) || s.adam.tau_level.size() != cfg.levels()) {
    return bad("optimizer moments do not fit the configuration");
  }
  // Empty when c fits, else what is wrong with it.
  auto context_misfit = [&](const ContextMemory<T>& c) -> std::string {
    if (c.levels.size() != cfg.levels()) return "context memory holds the wrong number of levels";
    for (const auto& l : c.levels) {
      if (l.size() != state_size(cfg.rule, cfg.rule_cfg)) return "context memory level has the wrong size";
    }
    return {};
  };
  if (std::string why = context_misfit(s.context); !why.empty()) return bad(why);
  for (const ContextMemory<T>& c : s.more_contexts) {
    if (std::string why = context_misfit(c); !why.empty()) return bad(why);
  }
  if (s.buffer_sums.size() != cfg.levels() || s.buffer_counts.size() != cfg.levels()) return bad("error buffers: wrong number of levels");
  for (const auto& b : s.buffer_sums) {
    if (!b.fits(cfg.d, has_omega(cfg.rule))) return bad("error buffer has the wrong size");
  }
  BasicTrainer t(s.cfg, std::move(s.params), s.opt, 1 + s.more_contexts.size());
  t.optimizer_.restore(std::move(s.adam));
  t.conductor_ = Conductor(t.cfg_.periods, s.step);
  t.contexts_[0] = std::move(s.context);
  std::move(s.more_contexts.begin(), s.more_contexts.end(), t.contexts_.begin() + 1);
  for (std::size_t l = 0; l < t.cfg_.levels(); ++l) t.buffers_[l].restore(std::move(s.buffer_sums[l]), s.buffer_counts[l]);
  return t;
}

template <typename T>
common::Result<T> BasicTrainer<T>::forward_step(std::span<const std::size_t> ids, std::span<const std::size_t> targets) {
  const Pulse pulse = conductor_.pulse();
  auto f = cms_forward<T>(cfg_, params_, ids, targets, pulse, contexts_[0]);
  if (!f.ok()) return f.error();
  contexts_[0] = std::move(f->context_after);
  conductor_.advance();
  return f->loss;
}

template class BasicTrainer<float>;
template class BasicTrainer<double>;

}  // namespace nl
