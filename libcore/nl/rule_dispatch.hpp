#pragma once
// visit_rule: from a run-time RuleKind to the rule's class template, so generic code is written
// once: visit_rule(kind, [&]<template <typename> class R>() { ... R<float>::forward(...) ... }).
#include <utility>

#include "nl/atlas_omega.hpp"
#include "nl/delta_rule.hpp"
#include "nl/hebbian_rule.hpp"
#include "nl/lattice_osr.hpp"
#include "nl/memora.hpp"
#include "nl/moneta.hpp"
#include "nl/rule_config.hpp"
#include "nl/titans_lmm.hpp"
#include "nl/trellis.hpp"
#include "nl/yaad.hpp"

namespace nl {

static_assert(MemoryRule<DeltaRule<float>> && MemoryRule<TitansLMM<double>> && MemoryRule<HebbianRule<float>> &&
              MemoryRule<Moneta<double>> && MemoryRule<Yaad<float>> && MemoryRule<Memora<double>> &&
              MemoryRule<LatticeOsr<float>> && MemoryRule<Trellis<double>> && MemoryRule<AtlasOmega<float>>);

template <typename F>
decltype(auto) visit_rule(RuleKind kind, F&& f) {
  switch (kind) {
    case RuleKind::delta: return std::forward<F>(f).template operator()<DeltaRule>();
    case RuleKind::titans: return std::forward<F>(f).template operator()<TitansLMM>();
    case RuleKind::hebbian: return std::forward<F>(f).template operator()<HebbianRule>();
    case RuleKind::moneta: return std::forward<F>(f).template operator()<Moneta>();
    case RuleKind::yaad: return std::forward<F>(f).template operator()<Yaad>();
    case RuleKind::memora: return std::forward<F>(f).template operator()<Memora>();
    case RuleKind::lattice: return std::forward<F>(f).template operator()<LatticeOsr>();
    case RuleKind::trellis: return std::forward<F>(f).template operator()<Trellis>();
    case RuleKind::atlas: break;
  }
  return std::forward<F>(f).template operator()<AtlasOmega>();
}

}  // namespace nl
