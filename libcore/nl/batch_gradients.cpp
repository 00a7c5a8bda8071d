#include "nl/batch_gradients.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "nl/cms_forward.hpp"
#include "nl/named_tensors.hpp"
#include "nl/traced_cms_forward.hpp"

namespace nl {
// Outside the anonymous namespace: batch_gradients (a template, external linkage) captures these
// in a lambda, which GCC reports (-Wsubobject-linkage) when this file is compiled inside a unity
// batch, where it is not the main file.
namespace batch_detail {

template <typename T>
struct SequenceGradients {
  T loss = 0;
  MagGradients<T> grads;
  ContextMemory<T> context_after;
  Pulse pulse;
};

}  // namespace batch_detail

namespace {

using batch_detail::SequenceGradients;
template <typename T>
using SequenceResult = common::Expected<SequenceGradients<T>, StepError>;

// A non-finite gradient would poison the parameters and the optimizer state for good: refuse the
// step, naming the tensor.
template <typename T>
common::Status check_finite(const MagConfig& cfg, MagGradients<T>& g) {
  for (const BasicNamedTensor<T>& t : named_tensors(cfg, g.params)) {
    for (T v : t.data) {
      if (!std::isfinite(v)) return common::Error::invalid_argument("gradient: " + t.name + ": is not finite (NaN or Inf)");
    }
  }
  for (std::size_t l = 0; l < g.error.size(); ++l) {
    for (const BasicNamedTensor<T>& t : named_level_tensors(cfg, l, g.error[l])) {
      for (T v : t.data) {
        if (!std::isfinite(v)) return common::Error::invalid_argument("error buffer: " + t.name + ": is not finite (NaN or Inf)");
      }
    }
  }
  return {};
}

// The tape's gradients (fp32 only).
common::Expected<SequenceGradients<float>, StepError> tape_sequence(const tape::opaque::OpaqueRegistry& registry,
                                                                   const MagConfig& cfg, const MagParams<float>& params,
                                                                   const Sequence& seq, const ContextMemory<float>& context,
                                                                   const Pulse& pulse, StepObserver* observer, std::size_t stream,
                                                                   tape::ContextSpill* spill) {
  auto r = tape_gradients(registry, cfg, params, seq.ids, seq.targets, pulse, context, observer, stream, spill);
  if (!r.ok()) {
    const StepFailure kind = r.error().non_finite()                      ? StepFailure::non_finite
                             : r.error().code() == common::ErrorCode::io ? StepFailure::io
                                                                         : StepFailure::invalid;
    return StepError(r.error(), kind);
  }
  return SequenceGradients<float>{r->loss, std::move(r->grads), std::move(r->context_after), r->pulse};  // a learned gate may differ from `pulse`
}

template <typename T>
SequenceResult<T> one_sequence(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg, const MagParams<T>& params,
                               const Sequence& seq, const ContextMemory<T>& context, const Pulse& pulse, GradientPath path,
                               StepObserver* observer, std::size_t stream, tape::ContextSpill* spill) {
  SequenceGradients<T> out;
  if constexpr (!std::is_same_v<T, float>) {
    if (path == GradientPath::tape) {
      return StepError(common::Error::invalid_argument("gradient path: the tape is fp32-only; an fp64 step takes the hand-written backward"),
                       StepFailure::invalid);
    }
  } else if (path == GradientPath::tape) {
    auto r = tape_sequence(registry, cfg, params, seq, context, pulse, observer, stream, spill);
    if (!r.ok()) return r.error();
    out = std::move(*r);
  }
  if (path == GradientPath::hand_written) {
    // cms_forward fails on inputs that do not fit or on a non-finite loss; checking the inputs
    // first leaves only the second (the hand-written path serves tests, so the cost is theirs).
    TimedPhase forward(observer, StepPhase::forward, stream);
    if (common::Status s = check_chunk_inputs(cfg, params, seq.ids, seq.targets, pulse, context); !s.ok()) {
      return StepError(s.error(), StepFailure::invalid);
    }
    auto f = cms_forward<T>(cfg, params, seq.ids, seq.targets, pulse, context);
    if (!f.ok()) return StepError(f.error(), StepFailure::non_finite);
    out.loss = f->loss;
    out.pulse = f->pulse;
    forward.end();
    const TimedPhase backward(observer, StepPhase::backward, stream);
    out.grads = cms_backward_consuming<T>(cfg, params, *f);  // f.context_after stays
    out.context_after = std::move(f->context_after);
  }
  if (common::Status s = check_finite(cfg, out.grads); !s.ok()) return StepError(s.error(), StepFailure::non_finite);
  return out;
}

// Every tensor of g: the parameters' gradients, then each level's error-buffer share.
template <typename T>
std::vector<std::span<T>> tensor_spans(const MagConfig& cfg, MagGradients<T>& g) {
  std::vector<std::span<T>> out;
  for (const BasicNamedTensor<T>& t : named_tensors(cfg, g.params)) out.push_back(t.data);
  for (std::size_t l = 0; l < g.error.size(); ++l) {
    for (const BasicNamedTensor<T>& t : named_level_tensors(cfg, l, g.error[l])) out.push_back(t.data);
  }
  return out;
}

// Elements per reduction task: enough to amortise handing it to a thread.
constexpr std::size_t kReduceBlock = 8192;

// g[0][t][i] = (((g[0][t][i] + g[1][t][i]) + ...) + g[B-1][t][i]) / B for every tensor t and
// element i. Each element's sum runs in that order whichever thread takes its block, so the
// split into blocks (and the thread count) cannot change a bit. Returns whether every mean is
// finite (finite parts can still sum past the float range).
template <typename T>
bool mean_into_first(std::vector<std::vector<std::span<T>>>& g, common::WorkerPool* pool) {
  struct Block {
    std::size_t tensor, begin, end;
  };
  std::vector<Block> blocks;
  for (std::size_t t = 0; t < g[0].size(); ++t) {
    for (std::size_t i = 0; i < g[0][t].size(); i += kReduceBlock) blocks.push_back({t, i, std::min(g[0][t].size(), i + kReduceBlock)});
  }
  const auto count = static_cast<T>(g.size());
  std::vector<unsigned char> finite(blocks.size(), 1);  // bytes, not vector<bool>: one writer each
  auto reduce = [&](std::size_t j) {
    const Block& k = blocks[j];
    std::span<T> acc = g[0][k.tensor].subspan(k.begin, k.end - k.begin);
    for (std::size_t b = 1; b < g.size(); ++b) {
      const std::span<const T> x = g[b][k.tensor].subspan(k.begin, k.end - k.begin);
      for (std::size_t i = 0; i < acc.size(); ++i) acc[i] += x[i];
    }
    bool ok = true;
    for (T& v : acc) {
      v /= count;
      ok = ok && std::isfinite(v);
    }
    finite[j] = ok ? 1 : 0;
  };
  if (pool != nullptr) {
    pool->run(blocks.size(), reduce);
  } else {
    for (std::size_t j = 0; j < blocks.size(); ++j) reduce(j);
  }
  return std::all_of(finite.begin(), finite.end(), [](unsigned char f) { return f != 0; });
}

// A failure as one line that another process can turn back into the same StepError: its kind,
// its error code, then its message.
std::string failure_text(const StepError& e) {
  return std::string(1, e.non_finite() ? 'n' : e.kind() == StepFailure::io ? 'o' : 'i') + static_cast<char>('0' + static_cast<int>(e.code())) + e.message();
}

StepError failure_from_text(const std::string& t) {
  const StepFailure kind = t[0] == 'n' ? StepFailure::non_finite : t[0] == 'o' ? StepFailure::io : StepFailure::invalid;
  return StepError(common::Error(static_cast<common::ErrorCode>(t[1] - '0'), t.substr(2)), kind);
}

// The means over a batch split across processes (BatchShare): one running vector, every
// gradient element then the loss, passed through the processes in order; each adds its
// sequences in index order, the first sequence of all starting it, exactly as the one-process
// sums above do. Then, on every process, the division by the batch size.
common::Expected<BatchGradients, StepError> shared_means(const MagConfig& cfg, std::vector<std::optional<SequenceResult<float>>>& slots,
                                                         BatchShare& share) {
  std::string mine;
  for (std::size_t b = 0; b < slots.size() && mine.empty(); ++b) {
    if (!slots[b]->ok()) {
      const StepError& e = slots[b]->error();
      mine = failure_text(StepError(common::Error(e.code(), "sequence " + std::to_string(share.first() + b) + ": " + e.message(), e.where()), e.kind()));
    }
  }
  auto first = share.first_failure(mine);
  if (!first.ok()) return StepError(first.error(), StepFailure::invalid);
  if (!first->empty()) return failure_from_text(*first);
  std::vector<std::vector<std::span<float>>> spans;
  for (auto& slot : slots) spans.push_back(tensor_spans(cfg, slot->value().grads));
  std::vector<float> running;
  auto add_mine = [&](std::vector<float>& acc) {
    for (std::size_t b = 0; b < slots.size(); ++b) {
      const float loss = slots[b]->value().loss;
      if (acc.empty()) {  // the batch's first sequence
        for (const std::span<float>& t : spans[b]) acc.insert(acc.end(), t.begin(), t.end());
        acc.push_back(loss);
        continue;
      }
      std::size_t at = 0;
      for (const std::span<float>& t : spans[b]) {
        for (float v : t) acc[at++] += v;
      }
      acc[at] += loss;
    }
  };
  if (common::Status s = share.chain(running, add_mine); !s.ok()) return StepError(s.error(), StepFailure::invalid);
  const auto count = static_cast<float>(share.total());
  BatchGradients out;
  out.grads = std::move(slots[0]->value().grads);
  std::size_t at = 0;
  for (const std::span<float>& t : tensor_spans(cfg, out.grads)) {
    for (float& v : t) v = running[at++] / count;
  }
  out.loss = running[at] / count;
  if (common::Status s = check_finite(cfg, out.grads); !s.ok()) return StepError(s.error(), StepFailure::non_finite);
  out.pulse = slots[0]->value().pulse;
  for (auto& slot : slots) out.contexts_after.push_back(std::move(slot->value().context_after));
  return out;
}

}  // namespace

template <typename T>
common::Expected<BasicBatchGradients<T>, StepError> batch_gradients(const tape::opaque::OpaqueRegistry& registry, const MagConfig& cfg,
                                                                    const MagParams<T>& params, std::span<const Sequence> batch,
                                                                    std::span<const ContextMemory<T>> contexts, const Pulse& pulse,
                                                                    GradientPath path, common::WorkerPool* pool, BatchShare* share,
                                                                    StepObserver* observer, StepSpill* spill) {
  const std::size_t n = batch.size();
  if (n == 0 || contexts.size() != n) {
    return StepError(common::Error::invalid_argument("batch: " + std::to_string(n) + " sequences for " +
                                                     std::to_string(contexts.size()) + " context memories"),
                     StepFailure::invalid);
  }
  if ((n > 1 || share != nullptr) && cfg.learned_schedule()) {
    return StepError(common::Error::invalid_argument("batch: a learned frequency schedule trains one sequence per step"),
                     StepFailure::invalid);
  }
  if (!std::is_same_v<T, float> && (share != nullptr || spill != nullptr)) {
    return StepError(common::Error::invalid_argument("batch: an fp64 step runs in one process, without a memory budget"),
                     StepFailure::invalid);
  }
  // Each sequence writes its own slot; which thread computed it does not matter below.
  std::vector<std::optional<SequenceResult<T>>> slots(n);
  const std::size_t first_stream = share != nullptr ? share->first() : 0;
  auto task = [&](std::size_t b) {
    // The hook outlives the sequence's tape (made inside one_sequence) and goes with it.
    const std::unique_ptr<tape::ContextSpill> hook = spill != nullptr ? spill->for_sequence(b) : nullptr;
    slots[b].emplace(
        one_sequence(registry, cfg, params, batch[b], contexts[b], pulse, path, observer, first_stream + b, hook.get()));
  };
  if (pool != nullptr && n > 1) {
    pool->run(n, task);
  } else {
    for (std::size_t b = 0; b < n; ++b) task(b);
  }
  const TimedPhase reduce(observer, StepPhase::reduce);
  if constexpr (std::is_same_v<T, float>) {
    if (share != nullptr) return shared_means(cfg, slots, *share);
  }
  for (std::size_t b = 0; b < n; ++b) {
    if (!slots[b]->ok()) {
      const StepError& e = slots[b]->error();
      if (n == 1) return e;
      return StepError(common::Error(e.code(), "sequence " + std::to_string(b) + ": " + e.message(), e.where()), e.kind());
    }
  }
  BasicBatchGradients<T> out;
  out.pulse = slots[0]->value().pulse;
  if (n > 1) {
    std::vector<std::vector<std::span<T>>> spans;
    for (std::size_t b = 0; b < n; ++b) spans.push_back(tensor_spans(cfg, slots[b]->value().grads));
    const bool finite = mean_into_first(spans, pool);
    out.grads = std::move(slots[0]->value().grads);  // the means (moving keeps the buffers)
    if (!finite) {
      common::Status s = check_finite(cfg, out.grads);
      return StepError(s.error(), StepFailure::non_finite);
    }
  } else {
    out.grads = std::move(slots[0]->value().grads);  // a batch of one: the sequence's own, untouched
  }
  out.loss = slots[0]->value().loss;
  for (std::size_t b = 1; b < n; ++b) out.loss += slots[b]->value().loss;  // the same fixed order
  if (n > 1) out.loss /= static_cast<T>(n);
  for (std::size_t b = 0; b < n; ++b) out.contexts_after.push_back(std::move(slots[b]->value().context_after));
  return out;
}

template common::Expected<BasicBatchGradients<float>, StepError> batch_gradients<float>(
    const tape::opaque::OpaqueRegistry&, const MagConfig&, const MagParams<float>&, std::span<const Sequence>,
    std::span<const ContextMemory<float>>, const Pulse&, GradientPath, common::WorkerPool*, BatchShare*, StepObserver*, StepSpill*);
template common::Expected<BasicBatchGradients<double>, StepError> batch_gradients<double>(
    const tape::opaque::OpaqueRegistry&, const MagConfig&, const MagParams<double>&, std::span<const Sequence>,
    std::span<const ContextMemory<double>>, const Pulse&, GradientPath, common::WorkerPool*, BatchShare*, StepObserver*, StepSpill*);

}  // namespace nl
