#include "nl/batch_gradients.hpp"

#include <cassert>
#include <cmath>
#include <optional>
#include <string>

#include "nl/cms_forward.hpp"
#include "nl/named_tensors.hpp"
#include "nl/traced_cms_forward.hpp"

namespace nl {
namespace {

struct SequenceGradients {
  float loss = 0;
  MagGradients<float> grads;
  ContextMemory<float> context_after;
  Pulse pulse;
};
using SequenceResult = common::Expected<SequenceGradients, StepError>;

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

SequenceResult one_sequence(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg, const MagParams<float>& params,
                            const Sequence& seq, const ContextMemory<float>& context, const Pulse& pulse, GradientPath path) {
  SequenceGradients out;
  if (path == GradientPath::tape) {
    auto r = tape_gradients(registry, cfg, params, seq.ids, seq.targets, pulse, context);
    if (!r.ok()) return StepError(r.error(), r.error().non_finite() ? StepFailure::non_finite : StepFailure::invalid);
    out = {r->loss, std::move(r->grads), std::move(r->context_after), r->pulse};  // a learned gate may differ from `pulse`
  } else {
    // cms_forward fails on inputs that do not fit or on a non-finite loss; checking the inputs
    // first leaves only the second (the hand-written path serves tests, so the cost is theirs).
    if (common::Status s = check_chunk_inputs(cfg, params, seq.ids, seq.targets, pulse, context); !s.ok()) {
      return StepError(s.error(), StepFailure::invalid);
    }
    auto f = cms_forward<float>(cfg, params, seq.ids, seq.targets, pulse, context);
    if (!f.ok()) return StepError(f.error(), StepFailure::non_finite);
    out.loss = f->loss;
    out.pulse = f->pulse;
    out.grads = cms_backward_consuming<float>(cfg, params, *f);  // f.context_after stays
    out.context_after = std::move(f->context_after);
  }
  if (common::Status s = check_finite(cfg, out.grads); !s.ok()) return StepError(s.error(), StepFailure::non_finite);
  return out;
}

void add_into(std::span<float> acc, std::span<const float> x) {
  assert(acc.size() == x.size());  // one configuration, one pulse: the same shapes
  for (std::size_t i = 0; i < acc.size(); ++i) acc[i] += x[i];
}

void divide(std::span<float> acc, float n) {
  for (float& v : acc) v /= n;
}

// acc = op(acc, x) tensor by tensor over the parameters and the error buffers' contributions.
template <typename Op>
void each_tensor(const MagConfig& cfg, MagGradients<float>& acc, MagGradients<float>* x, Op op) {
  std::vector<NamedTensor> a = named_tensors(cfg, acc.params);
  std::vector<NamedTensor> b = x != nullptr ? named_tensors(cfg, x->params) : std::vector<NamedTensor>{};
  for (std::size_t i = 0; i < a.size(); ++i) op(a[i].data, x != nullptr ? b[i].data : std::span<float>{});
  for (std::size_t l = 0; l < acc.error.size(); ++l) {
    std::vector<NamedTensor> ea = named_level_tensors(cfg, l, acc.error[l]);
    std::vector<NamedTensor> eb = x != nullptr ? named_level_tensors(cfg, l, x->error[l]) : std::vector<NamedTensor>{};
    for (std::size_t i = 0; i < ea.size(); ++i) op(ea[i].data, x != nullptr ? eb[i].data : std::span<float>{});
  }
}

}  // namespace

common::Expected<BatchGradients, StepError> batch_gradients(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                                                            const MagParams<float>& params, std::span<const Sequence> batch,
                                                            std::span<const ContextMemory<float>> contexts, const Pulse& pulse,
                                                            GradientPath path, common::WorkerPool* pool) {
  const std::size_t n = batch.size();
  if (n == 0 || contexts.size() != n) {
    return StepError(common::Error::invalid_argument("batch: " + std::to_string(n) + " sequences for " +
                                                     std::to_string(contexts.size()) + " context memories"),
                     StepFailure::invalid);
  }
  if (n > 1 && cfg.learned_schedule()) {
    return StepError(common::Error::invalid_argument("batch: a learned frequency schedule trains one sequence per step"),
                     StepFailure::invalid);
  }
  // Each sequence writes its own slot; which thread computed it does not matter below.
  std::vector<std::optional<SequenceResult>> slots(n);
  auto task = [&](std::size_t b) { slots[b].emplace(one_sequence(registry, cfg, params, batch[b], contexts[b], pulse, path)); };
  if (pool != nullptr && n > 1) {
    pool->run(n, task);
  } else {
    for (std::size_t b = 0; b < n; ++b) task(b);
  }
  for (std::size_t b = 0; b < n; ++b) {
    if (!slots[b]->ok()) {
      const StepError& e = slots[b]->error();
      if (n == 1) return e;
      return StepError(common::Error(e.code(), "sequence " + std::to_string(b) + ": " + e.message(), e.where()), e.kind());
    }
  }
  BatchGradients out;
  SequenceGradients& first = slots[0]->value();
  out.pulse = first.pulse;
  out.grads = std::move(first.grads);
  out.loss = first.loss;
  out.contexts_after.push_back(std::move(first.context_after));
  for (std::size_t b = 1; b < n; ++b) {  // the fixed order of the sum
    SequenceGradients& g = slots[b]->value();
    out.loss += g.loss;
    each_tensor(cfg, out.grads, &g.grads, [](std::span<float> acc, std::span<float> x) { add_into(acc, x); });
    out.contexts_after.push_back(std::move(g.context_after));
  }
  if (n > 1) {
    const auto count = static_cast<float>(n);
    out.loss /= count;
    each_tensor(cfg, out.grads, nullptr, [count](std::span<float> acc, std::span<float>) { divide(acc, count); });
    // Finite parts can still sum past the float range.
    if (common::Status s = check_finite(cfg, out.grads); !s.ok()) return StepError(s.error(), StepFailure::non_finite);
  }
  return out;
}

}  // namespace nl
