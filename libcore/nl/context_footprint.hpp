#pragma once
// The largest state a training step's tape keeps for one memory level: the bytes of one rule
// cache (active, or frozen under a learned or fixed schedule), (s+1) d^2 floats and more for most
// rules. A memory budget (nltrain train --memory-budget) can move caches out of RAM, but one
// of them must be whole in RAM while its level's backward runs, so a budget below this (per
// sequence computed at once) cannot work and is refused up front with this number.
#include <cstddef>

#include "nl/context_memory.hpp"
#include "nl/mag_config.hpp"
#include "nl/mag_params.hpp"

namespace nl {

// Measured, not estimated: runs level 0's forward (and frozen forward) once on a made-up chunk of
// cfg.seq_len rows and sums the cache it makes (each rule's cache layout is its own).
[[nodiscard]] std::size_t largest_context_bytes(const MagConfig& cfg, const MagParams<float>& params,
                                                const ContextMemory<float>& context);

// What a pager (tape/state_pager.hpp) can cut of that cache: its state trajectories
// (nl/segmented_states.hpp), `trajectories` of them, each of one state of `state_bytes` per step;
// the rest (`unpaged_bytes`, the larger of the active and frozen caches' rest) stays whole. A
// rule that keeps no SegmentedStates has trajectories 0 and unpaged_bytes == bytes.
struct ContextFootprint {
  std::size_t bytes = 0;          // largest_context_bytes
  std::size_t unpaged_bytes = 0;  // what cannot be cut into segments
  std::size_t state_bytes = 0;    // one state of one trajectory
  std::size_t trajectories = 0;   // per cache
};
[[nodiscard]] ContextFootprint context_footprint(const MagConfig& cfg, const MagParams<float>& params,
                                                 const ContextMemory<float>& context);

}  // namespace nl
