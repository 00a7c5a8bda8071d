#include "nl/register_opaque_vjps.hpp"

#include <algorithm>
#include <cassert>

#include "nl/block_header.hpp"
#include "nl/cache_packing.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_dispatch.hpp"
#include "nl/swa.hpp"

namespace nl {
namespace {

using Spans = std::span<const std::span<const float>>;
using OutSpans = std::span<const std::span<float>>;

template <template <typename> class Rule>
void active_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const BlockHeader h = decode_header(saved[0]);
  auto params = LevelParams<float>::from_flat(saved[2], h.cfg.d, has_omega(h.kind));
  assert(params.ok());
  if (saved.size() == 6) {  // recorded through a kernel pair (record_active): its backward
    const KernelPair* pair = kernel_pair_by_handle(static_cast<std::size_t>(saved[5][0]));
    assert(pair != nullptr);
    const ChunkGrads<float> g = pair->backward(h.cfg, h.s, saved[1], *params, saved[3], saved[4], d_outputs[0]);
    std::copy(g.x.begin(), g.x.end(), d_inputs[0].begin());
    g.params.write_flat(d_inputs[1]);
    return;
  }
  typename Rule<float>::Cache cache;
  unpack_cache(saved[3], saved[4], cache);
  const ChunkGrads<float> g = Rule<float>::step_backward(h.cfg, h.s, saved[1], *params, cache, d_outputs[0]);
  std::copy(g.x.begin(), g.x.end(), d_inputs[0].begin());
  g.params.write_flat(d_inputs[1]);
}

template <template <typename> class Rule>
void frozen_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const BlockHeader h = decode_header(saved[0]);
  FrozenCache<float> cache;
  unpack_cache(saved[2], saved[3], cache);
  const std::vector<float> gq = Rule<float>::frozen_backward(h.cfg, h.s, saved[1], cache, d_outputs[0]);
  std::copy(gq.begin(), gq.end(), d_inputs[0].begin());
}

void swa_vjp(Spans d_outputs, Spans saved, OutSpans d_inputs) {
  const SwaShape shape = decode_swa_shape(saved[0]);
  swa_backward<float>(shape, saved[1], saved[2], saved[3], saved[4], d_outputs[0], d_inputs[0], d_inputs[1],
                      d_inputs[2]);
}

}  // namespace

common::Status register_opaque_vjps(tape::opaque::OpaqueRegistry& registry) {
  for (RuleKind kind : kAllRuleKinds) {
    const common::Status s = visit_rule(kind, [&]<template <typename> class R>() -> common::Status {
      if (common::Status a = registry.register_backward(active_key(kind), &active_vjp<R>); !a.ok()) return a;
      return registry.register_backward(frozen_key(kind), &frozen_vjp<R>);
    });
    if (!s.ok()) return s;
  }
  return registry.register_backward(tape::opaque::OpaqueKey::swa, &swa_vjp);
}

}  // namespace nl
