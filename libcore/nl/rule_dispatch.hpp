#pragma once
// visit_rule: from a run-time RuleKind to the rule's class template, so generic code is written
// once: visit_rule(kind, [&]<template <typename> class R>() { ... R<float>::forward(...) ... }).
#include <utility>

#include "nl/delta_rule.hpp"
#include "nl/rule_config.hpp"

namespace nl {

template <typename F>
decltype(auto) visit_rule(RuleKind kind, F&& f) {
  switch (kind) {
    case RuleKind::delta: break;
  }
  return std::forward<F>(f).template operator()<DeltaRule>();
}

}  // namespace nl
