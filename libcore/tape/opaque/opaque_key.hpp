#pragma once
// Names of the opaque blocks the tape can record: every memory rule, sliding-window attention,
// the output head with its loss, and the read-only (frozen) variant of each rule. The tape never differentiates through these
// blocks; the backward function registered for the key supplies their VJP.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tape::opaque {

enum class OpaqueKey : std::uint8_t {
  // Active memory rules (write + read).
  delta_rule,
  titans_lmm,
  hebbian_rule,
  moneta,
  yaad,
  memora,
  lattice_osr,
  trellis,
  atlas_omega,
  // Sliding-window attention.
  swa,
  // The output head and the softmax cross-entropy loss: logits = (Z W_o^T) U_emb, mean loss.
  head_loss,
  // Frozen read-only variants (read without write).
  frozen_delta_rule,
  frozen_titans_lmm,
  frozen_hebbian_rule,
  frozen_moneta,
  frozen_yaad,
  frozen_memora,
  frozen_lattice_osr,
  frozen_trellis,
  frozen_atlas_omega,
};

inline constexpr std::size_t kOpaqueKeyCount = 20;

inline constexpr std::array<OpaqueKey, kOpaqueKeyCount> kAllOpaqueKeys = {
    OpaqueKey::delta_rule,          OpaqueKey::titans_lmm,        OpaqueKey::hebbian_rule,
    OpaqueKey::moneta,              OpaqueKey::yaad,              OpaqueKey::memora,
    OpaqueKey::lattice_osr,         OpaqueKey::trellis,           OpaqueKey::atlas_omega,
    OpaqueKey::swa,                 OpaqueKey::head_loss,         OpaqueKey::frozen_delta_rule, OpaqueKey::frozen_titans_lmm,
    OpaqueKey::frozen_hebbian_rule, OpaqueKey::frozen_moneta,     OpaqueKey::frozen_yaad,
    OpaqueKey::frozen_memora,       OpaqueKey::frozen_lattice_osr, OpaqueKey::frozen_trellis,
    OpaqueKey::frozen_atlas_omega,
};

// Stable display names, spelled as in the seed (DeltaRule, FrozenMEMORA, ...).
[[nodiscard]] constexpr std::string_view to_string(OpaqueKey key) {
  switch (key) {
    case OpaqueKey::delta_rule: return "DeltaRule";
    case OpaqueKey::titans_lmm: return "TitansLMM";
    case OpaqueKey::hebbian_rule: return "HebbianRule";
    case OpaqueKey::moneta: return "Moneta";
    case OpaqueKey::yaad: return "YAAD";
    case OpaqueKey::memora: return "MEMORA";
    case OpaqueKey::lattice_osr: return "LatticeOSR";
    case OpaqueKey::trellis: return "Trellis";
    case OpaqueKey::atlas_omega: return "AtlasOmega";
    case OpaqueKey::swa: return "SWA";
    case OpaqueKey::head_loss: return "HeadLoss";
    case OpaqueKey::frozen_delta_rule: return "FrozenDeltaRule";
    case OpaqueKey::frozen_titans_lmm: return "FrozenTitansLMM";
    case OpaqueKey::frozen_hebbian_rule: return "FrozenHebbianRule";
    case OpaqueKey::frozen_moneta: return "FrozenMoneta";
    case OpaqueKey::frozen_yaad: return "FrozenYAAD";
    case OpaqueKey::frozen_memora: return "FrozenMEMORA";
    case OpaqueKey::frozen_lattice_osr: return "FrozenLatticeOSR";
    case OpaqueKey::frozen_trellis: return "FrozenTrellis";
    case OpaqueKey::frozen_atlas_omega: return "FrozenAtlasOmega";
  }
  return "?";
}

[[nodiscard]] constexpr std::size_t index_of(OpaqueKey key) { return static_cast<std::size_t>(key); }

[[nodiscard]] constexpr std::optional<OpaqueKey> parse_opaque_key(std::string_view name) {
  for (OpaqueKey k : kAllOpaqueKeys) {
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}

// The read-only counterpart of an active rule; nullopt for SWA, the head and keys already frozen.
[[nodiscard]] constexpr std::optional<OpaqueKey> frozen_variant(OpaqueKey key) {
  const std::size_t i = index_of(key);
  if (i < index_of(OpaqueKey::swa)) return static_cast<OpaqueKey>(i + index_of(OpaqueKey::frozen_delta_rule));
  return std::nullopt;
}

[[nodiscard]] constexpr bool is_frozen(OpaqueKey key) { return index_of(key) >= index_of(OpaqueKey::frozen_delta_rule); }

static_assert(index_of(OpaqueKey::frozen_atlas_omega) + 1 == kOpaqueKeyCount);

}  // namespace tape::opaque
