#include "nl/record_block.hpp"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nl/block_header.hpp"
#include "nl/cache_packing.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_dispatch.hpp"
#include "tape/float_pool.hpp"
#include "tape/opaque/record_opaque.hpp"
#include "tape/tape_error.hpp"

namespace nl {
namespace {

using tape::Shape;
using tape::opaque::OpaqueValue;

std::string block_name(tape::opaque::OpaqueKey key) { return "Opaque(" + std::string(tape::opaque::to_string(key)) + ")"; }

// Rows of a sequence tensor whose width is cfg.d; throws when it is not s x d.
std::size_t seq_len(tape::opaque::OpaqueKey key, const RuleConfig& cfg, const tape::Tensor& x) {
  if (cfg.d == 0 || x.numel() == 0 || x.numel() % cfg.d != 0) {
    throw tape::TapeError(block_name(key), "input must be seq_len x d with d=" + std::to_string(cfg.d), {x.shape()});
  }
  return x.numel() / cfg.d;
}

void require_size(tape::opaque::OpaqueKey key, const char* what, std::size_t got, std::size_t want) {
  if (got != want) {
    throw tape::TapeError(block_name(key), std::string(what) + " holds " + std::to_string(got) + " values; expected " +
                                               std::to_string(want), {});
  }
}

OpaqueValue flat(std::span<const float> v) { return {v, Shape{v.size()}}; }

// The record owns the cache until the backward (or the tape) frees it; its vectors then go back
// to the freeing thread's pool, for the next step's forward to take.
template <typename Cache>
std::shared_ptr<Cache> pooled_cache(Cache&& c) {
  return std::shared_ptr<Cache>(new Cache(std::move(c)), [](Cache* p) {
    p->visit([](std::vector<float>& v) { tape::FloatPool::give_local(std::move(v)); });
    delete p;
  });
}

// The cache's fields for the tape's spill hook (tape/context_spill.hpp), in visit order.
template <typename Cache>
void cache_fields(void* cache, const std::function<void(std::vector<float>&)>& f) {
  static_cast<Cache*>(cache)->visit([&](std::vector<float>& v) { f(v); });
}

}  // namespace

RecordedChunk record_active(const tape::opaque::OpaqueRegistry& registry, RuleKind kind, const RuleConfig& cfg,
                            const tape::Tensor& x, const tape::Tensor& params, std::span<const float> state) {
  const auto key = active_key(kind);
  const std::size_t s = seq_len(key, cfg, x);
  require_size(key, "level params", params.numel(), LevelParams<float>::flat_size(cfg.d, has_omega(kind)));
  require_size(key, "state", state.size(), state_size(kind, cfg));
  auto p = LevelParams<float>::from_flat(params.data(), cfg.d, has_omega(kind));
  if (const auto installed = installed_kernel_pair(kind)) {
    // A kernel pair (libgpu) runs the level; its handle, saved last, routes the VJP to it.
    KernelChunk f = installed->pair->forward(cfg, s, x.data(), *p, state);
    const std::vector<float> header = encode_header({kind, cfg, s});
    const std::vector<float> handle{static_cast<float>(installed->handle)};
    const std::array<tape::Tensor, 2> inputs{x, params};
    const std::array<OpaqueValue, 1> outputs{OpaqueValue{f.y, Shape{s, cfg.d}}};
    const std::array<OpaqueValue, 6> saved{flat(header), OpaqueValue{x.data(), Shape{s, cfg.d}}, flat(params.data()),
                                           flat(f.cache.layout), flat(f.cache.data), flat(handle)};
    RecordedChunk out;
    out.y = tape::opaque::record_opaque(registry, key, inputs, outputs, saved).at(0);
    out.final_state = std::move(f.final_state);
    return out;
  }
  return visit_rule(kind, [&]<template <typename> class R>() {
    auto f = R<float>::forward(cfg, s, x.data(), *p, state);
    // The cache moves into the record (its context); the saved fields alias it, uncopied.
    auto cache = pooled_cache(std::move(f.cache));
    const std::vector<float> header = encode_header({kind, cfg, s});
    const std::array<tape::Tensor, 2> inputs{x, params};
    const std::array<OpaqueValue, 1> outputs{OpaqueValue{f.y, Shape{s, cfg.d}}};
    std::vector<OpaqueValue> saved{flat(header), OpaqueValue{x.data(), Shape{s, cfg.d}}, flat(params.data())};
    for_each_field(*cache, [&](std::span<const float> v) { saved.push_back({v, Shape{v.size()}, true}); });
    RecordedChunk out;
    using Cache = typename decltype(cache)::element_type;
    out.y = tape::opaque::record_opaque(registry, key, inputs, outputs, saved, std::move(cache), &cache_fields<Cache>).at(0);
    out.final_state = std::move(f.final_state);
    return out;
  });
}

tape::Tensor record_frozen(const tape::opaque::OpaqueRegistry& registry, RuleKind kind, const RuleConfig& cfg,
                           const tape::Tensor& q_raw, std::span<const float> state) {
  const auto key = frozen_key(kind);
  const std::size_t s = seq_len(key, cfg, q_raw);
  require_size(key, "state", state.size(), state_size(kind, cfg));
  return visit_rule(kind, [&]<template <typename> class R>() {
    auto f = R<float>::frozen_forward(cfg, s, q_raw.data(), state);
    auto cache = pooled_cache(std::move(f.cache));
    const std::vector<float> header = encode_header({kind, cfg, s});
    const std::array<tape::Tensor, 1> inputs{q_raw};
    const std::array<OpaqueValue, 1> outputs{OpaqueValue{f.y, Shape{s, cfg.d}}};
    std::vector<OpaqueValue> saved{flat(header), flat(state)};
    for_each_field(*cache, [&](std::span<const float> v) { saved.push_back({v, Shape{v.size()}, true}); });
    using Cache = typename decltype(cache)::element_type;
    return tape::opaque::record_opaque(registry, key, inputs, outputs, saved, std::move(cache), &cache_fields<Cache>).at(0);
  });
}

}  // namespace nl
