#include "nl/context_footprint.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "nl/rule_dispatch.hpp"
#include "tape/state_pager.hpp"

namespace nl {
namespace {

template <typename Cache>
std::size_t cache_bytes(Cache& c) {
  std::size_t floats = 0;
  c.visit([&](std::vector<float>& v) { floats += v.size(); });
  return floats * sizeof(float);
}

// A pager that cuts nothing: it only counts the trajectories a forward starts and their sizes.
class TrajectoryCounter final : public tape::StatePager {
 public:
  std::size_t trajectories = 0, state_floats = 0, floats = 0;
  std::size_t segment_steps(std::size_t count, std::size_t n) override {
    ++trajectories, state_floats = std::max(state_floats, n), floats += count * n;
    return 0;
  }
  std::uint64_t opened(std::vector<float>&, std::size_t) override { return 0; }  // never: nothing is cut
  void sealed(std::uint64_t) override {}
  void needed(std::uint64_t) override {}
  void released(std::uint64_t) noexcept override {}
};

}  // namespace

ContextFootprint context_footprint(const MagConfig& cfg, const MagParams<float>& params, const ContextMemory<float>& context) {
  const std::size_t s = cfg.seq_len, d = cfg.d;
  // A small varied chunk: the sizes depend on s and d only, but a rule must not meet 0/0.
  std::vector<float> x(s * d);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.01f * static_cast<float>(static_cast<int>(i % 7) - 3);
  return visit_rule(cfg.rule, [&]<template <typename> class R>() {
    TrajectoryCounter counter;
    ContextFootprint f;
    std::size_t active_bytes = 0;
    {
      const tape::StatePagerScope scope(&counter);
      auto active = R<float>::forward(cfg.rule_cfg, s, x, params.levels[0], context.levels[0]);
      active_bytes = cache_bytes(active.cache);
    }
    auto frozen = R<float>::frozen_forward(cfg.rule_cfg, s, x, context.levels[0]);
    const std::size_t frozen_bytes = cache_bytes(frozen.cache);
    f.bytes = std::max(active_bytes, frozen_bytes);
    f.unpaged_bytes = std::max(active_bytes - counter.floats * sizeof(float), frozen_bytes);
    f.state_bytes = counter.state_floats * sizeof(float);
    f.trajectories = counter.trajectories;
    return f;
  });
}

std::size_t largest_context_bytes(const MagConfig& cfg, const MagParams<float>& params, const ContextMemory<float>& context) {
  return context_footprint(cfg, params, context).bytes;
}

}  // namespace nl
