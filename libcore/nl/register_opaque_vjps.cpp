#include "nl/register_opaque_vjps.hpp"

#include <algorithm>
#include <cassert>

#include "nl/block_header.hpp"
#include "nl/cache_packing.hpp"
#include "nl/head_kernel.hpp"
#include "nl/head_loss.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_dispatch.hpp"
#include "nl/swa.hpp"
#include "nl/swa_kernel.hpp"

namespace nl {
namespace {

using Spans = std::span<const std::span<const float>>;
using OutSpans = std::span<const std::span<float>>;

template <template <typename> class Rule>
void run_active(const BlockHeader& h, const typename Rule<float>::Cache& cache, Spans d_outputs, Spans saved,
                OutSpans d_inputs) {
  auto params = LevelParams<float>::from_flat(saved[2], h.cfg.d, has_omega(h.kind));
  assert(params.ok());
  const ChunkGrads<float> g = Rule<float>::step_backward(h.cfg, h.s, saved[1], *params, cache, d_outputs[0]);
  std::copy(g.x.begin(), g.x.end(), d_inputs[0].begin());
  g.params.write_flat(d_inputs[1]);
}

// Saved: header, x, params, then the cache's fields (record_active); or, recorded through a
// kernel pair, header, x, params, layout, data and its handle (6 values; a rule cache has more
// than 3 fields, its front end alone 9).
constexpr std::size_t kKernelPairSaved = 6;

template <template <typename> class Rule>
void active_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const BlockHeader h = decode_header(saved[0]);
  if (saved.size() == kKernelPairSaved) {
    auto params = LevelParams<float>::from_flat(saved[2], h.cfg.d, has_omega(h.kind));
    assert(params.ok());
    const KernelPair* pair = kernel_pair_by_handle(static_cast<std::size_t>(saved[5][0]));
    assert(pair != nullptr);
    const ChunkGrads<float> g = pair->backward(h.cfg, h.s, saved[1], *params, saved[3], saved[4], d_outputs[0]);
    std::copy(g.x.begin(), g.x.end(), d_inputs[0].begin());
    g.params.write_flat(d_inputs[1]);
    return;
  }
  using Cache = typename Rule<float>::Cache;
  assert(saved.size() == 3 + cache_field_count<Cache>());
  Cache cache;
  unpack_fields(saved.subspan(3), cache);
  run_active<Rule>(h, cache, d_outputs, saved, d_inputs);
}

// The tape's path: the record kept the forward's cache object (record_active), read in place.
template <template <typename> class Rule>
void active_vjp_in_place(const void* context, Spans d_outputs, Spans saved, OutSpans d_inputs) {
  run_active<Rule>(decode_header(saved[0]), *static_cast<const typename Rule<float>::Cache*>(context), d_outputs,
                   saved, d_inputs);
}

template <template <typename> class Rule>
void run_frozen(const BlockHeader& h, const FrozenCache<float>& cache, Spans d_outputs, Spans saved,
                OutSpans d_inputs) {
  const std::vector<float> gq = Rule<float>::frozen_backward(h.cfg, h.s, saved[1], cache, d_outputs[0]);
  std::copy(gq.begin(), gq.end(), d_inputs[0].begin());
}

// Saved: header, state, then the FrozenCache's fields (record_frozen).
template <template <typename> class Rule>
void frozen_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  FrozenCache<float> cache;
  assert(saved.size() == 2 + cache_field_count<FrozenCache<float>>());
  unpack_fields(saved.subspan(2), cache);
  run_frozen<Rule>(decode_header(saved[0]), cache, d_outputs, saved, d_inputs);
}

template <template <typename> class Rule>
void frozen_vjp_in_place(const void* context, Spans d_outputs, Spans saved, OutSpans d_inputs) {
  run_frozen<Rule>(decode_header(saved[0]), *static_cast<const FrozenCache<float>*>(context), d_outputs, saved,
                   d_inputs);
}

// Saved: header, q, k, v, P (record_swa); recorded through an installed SwaKernel, its handle last.
constexpr std::size_t kSwaKernelSaved = 6;

void swa_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const SwaShape shape = decode_swa_shape(saved[0]);
  if (saved.size() == kSwaKernelSaved) {
    const SwaKernel* kernel = swa_kernel_by_handle(static_cast<std::size_t>(saved[5][0]));
    assert(kernel != nullptr);
    kernel->backward(shape, saved[1], saved[2], saved[3], saved[4], d_outputs[0], d_inputs[0], d_inputs[1], d_inputs[2]);
    return;
  }
  swa_backward<float>(shape, saved[1], saved[2], saved[3], saved[4], d_outputs[0], d_inputs[0], d_inputs[1],
                      d_inputs[2]);
}

// Saved: header, Z, W_o, U_emb, targets, Pj, probs (record_head_loss); recorded through an
// installed HeadKernel, its handle last.
constexpr std::size_t kHeadKernelSaved = 8;

void head_loss_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const HeadShape shape = decode_head_shape(saved[0]);
  const float g = d_outputs[0][0];
  if (saved.size() == kHeadKernelSaved) {
    const HeadKernel* kernel = head_kernel_by_handle(static_cast<std::size_t>(saved[7][0]));
    assert(kernel != nullptr);
    kernel->backward(shape, saved[1], saved[2], saved[3], saved[5], saved[6], saved[4], g, d_inputs[0], d_inputs[1],
                     d_inputs[2]);
    return;
  }
  head_loss_backward(shape, saved[1], saved[2], saved[3], saved[5], saved[6], saved[4], g, d_inputs[0], d_inputs[1],
                     d_inputs[2]);
}

}  // namespace

common::Status register_opaque_vjps(tape::opaque::OpaqueRegistry& registry) {
  for (RuleKind kind : kAllRuleKinds) {
    const common::Status s = visit_rule(kind, [&]<template <typename> class R>() -> common::Status {
      if (common::Status a = registry.register_backward(active_key(kind), &active_vjp<R>, &active_vjp_in_place<R>);
          !a.ok()) {
        return a;
      }
      return registry.register_backward(frozen_key(kind), &frozen_vjp<R>, &frozen_vjp_in_place<R>);
    });
    if (!s.ok()) return s;
  }
  if (common::Status s = registry.register_backward(tape::opaque::OpaqueKey::swa, &swa_vjp); !s.ok()) return s;
  return registry.register_backward(tape::opaque::OpaqueKey::head_loss, &head_loss_vjp);
}

}  // namespace nl
