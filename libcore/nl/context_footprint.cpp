#include "nl/context_footprint.hpp"

#include <algorithm>
#include <vector>

#include "nl/rule_dispatch.hpp"

namespace nl {
namespace {

template <typename Cache>
std::size_t cache_bytes(Cache& c) {
  std::size_t floats = 0;
  c.visit([&](std::vector<float>& v) { floats += v.size(); });
  return floats * sizeof(float);
}

}  // namespace

std::size_t largest_context_bytes(const MagConfig& cfg, const MagParams<float>& params, const ContextMemory<float>& context) {
  const std::size_t s = cfg.seq_len, d = cfg.d;
  // A small varied chunk: the sizes depend on s and d only, but a rule must not meet 0/0.
  std::vector<float> x(s * d);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.01f * static_cast<float>(static_cast<int>(i % 7) - 3);
  return visit_rule(cfg.rule, [&]<template <typename> class R>() {
    auto active = R<float>::forward(cfg.rule_cfg, s, x, params.levels[0], context.levels[0]);
    auto frozen = R<float>::frozen_forward(cfg.rule_cfg, s, x, context.levels[0]);
    return std::max(cache_bytes(active.cache), cache_bytes(frozen.cache));
  });
}

}  // namespace nl
