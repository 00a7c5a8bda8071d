#pragma once
// RuleConfig: the sizes and constants a memory rule needs (nltrain-math §1), and what each rule
// kind uses (state shape, gates, key/query normalization; §2 and the §6 table).
#include <cstddef>
#include <string_view>

#include "common/result.hpp"
#include "tape/opaque/opaque_key.hpp"

namespace nl {

enum class RuleKind : unsigned char { delta, titans, hebbian, moneta, yaad, memora, lattice, trellis, atlas };

inline constexpr RuleKind kAllRuleKinds[] = {RuleKind::delta,  RuleKind::titans,  RuleKind::hebbian,
                                             RuleKind::moneta, RuleKind::yaad,    RuleKind::memora,
                                             RuleKind::lattice, RuleKind::trellis, RuleKind::atlas};

// Lattice write input u_i (§6.9).
enum class LatticeVariant : unsigned char { decode, encode, similarity };

struct RuleConfig {
  std::size_t d = 8;     // model width
  std::size_t d_h = 4;   // MLP hidden width (Moneta, YAAD, MEMORA)
  std::size_t m = 4;     // Lattice slots
  std::size_t d_c = 8;   // Trellis compression width, d_c <= d
  double lambda_k = 0.0, lambda_v = 0.0;  // Trellis state decay
  double lambda_2 = 0.01;                 // global L2 (Moneta, YAAD)
  double lambda_loc = 0.01;               // local L2 toward the chunk start (YAAD only)
  double huber_delta = 1.0;               // YAAD
  double p = 2.0;                         // Moneta l_p exponent
  double a_s = 10.0;                      // Moneta tanh sharpness (p != 2)
  LatticeVariant lattice_variant = LatticeVariant::decode;
};

[[nodiscard]] std::string_view to_string(RuleKind kind);

// The widest MLP memory (d_h) and the most Lattice slots (m) a rule may have: with d <= 1024 a
// level's state stays under 2 * 4096 * 1024 floats.
inline constexpr std::size_t kMaxRuleWidth = 4096;

// Rejects zero sizes, d_h or m over kMaxRuleWidth, d_c > d, negative or non-finite constants,
// p < 1; the message names the field.
[[nodiscard]] common::Status validate(const RuleConfig& cfg);

// Floats in the context memory of one level (§6 table): d*d for the matrix rules, W1 then W2 for
// the MLP rules, m*d for Lattice, S_K then S_V for Trellis.
[[nodiscard]] std::size_t state_size(RuleKind kind, const RuleConfig& cfg);

// Keys and queries pass through nrm() (O-2: Delta, Titans, Hebbian only).
[[nodiscard]] constexpr bool normalizes_kq(RuleKind kind) {
  return kind == RuleKind::delta || kind == RuleKind::titans || kind == RuleKind::hebbian;
}
// The level carries W_omega (d x 2d).
[[nodiscard]] constexpr bool has_omega(RuleKind kind) { return kind == RuleKind::atlas; }

[[nodiscard]] constexpr tape::opaque::OpaqueKey active_key(RuleKind kind) {
  using K = tape::opaque::OpaqueKey;
  switch (kind) {
    case RuleKind::delta: return K::delta_rule;
    case RuleKind::titans: return K::titans_lmm;
    case RuleKind::hebbian: return K::hebbian_rule;
    case RuleKind::moneta: return K::moneta;
    case RuleKind::yaad: return K::yaad;
    case RuleKind::memora: return K::memora;
    case RuleKind::lattice: return K::lattice_osr;
    case RuleKind::trellis: return K::trellis;
    case RuleKind::atlas: return K::atlas_omega;
  }
  return K::delta_rule;
}
[[nodiscard]] constexpr tape::opaque::OpaqueKey frozen_key(RuleKind kind) {
  return *tape::opaque::frozen_variant(active_key(kind));
}

}  // namespace nl
