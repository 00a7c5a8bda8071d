#pragma once
// The import-time differential: the sidecar's claimed numbers against the engine's recomputation,
// each within the differential tolerance (clamped to reconcile::kDifferentialCeiling).
//
// First the reference's comparisons, in its order and with its field paths (forward, per-sample
// forward and loss with their completeness, reduced loss, backward signals, updates with
// optimizer state_after, parameters_after). Then, a deliberate difference, every other number the
// engine recomputed that the sidecar also claims at the same place: loss (unbatched), factor
// values, downstream contributions, weight_before, the per-update learning rate, post-update
// forward and loss, dual forms, plus completeness of the forward map and of updates[] (bp(1)
// lists them). Those disagreements are marked `extended`.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "receipt/engine/general_receipt.hpp"
#include "reconcile/read_json.hpp"
#include "reconcile/tolerance.hpp"

namespace importer {

struct Disagreement {
  std::string field_path;   // "updates[w_h1_o1].weight_after", "forward.o1.out"
  double delta = 0;         // NaN for a missing value (completeness)
  double applied_tolerance = 0;
  double stored = 0;        // the sidecar's claim (0 when missing)
  double recomputed = 0;    // the engine's value (0 when missing)
  bool extended = false;    // compared by bp only, not by the reference
};

// The tolerance the importer applies: {atol 1e-6, rtol 1e-4}, float32-grade, within the ceiling.
inline constexpr reconcile::Tolerance kDefaultDifferentialTolerance{1e-6, 1e-4};

// The engine's struct against the sidecar (differential_struct.cpp), without building the engine's
// to_json() document. The same comparison over that document, which it replaced, is the tests'
// oracle (tests/importer/differential_tree.*): the same disagreements, order and paths.
[[nodiscard]] std::vector<Disagreement> compare_with_engine(const receipt::engine::GeneralReceipt& engine,
                                                            const nlohmann::ordered_json& sidecar,
                                                            reconcile::Tolerance tolerance);
// The same, the sidecar read in place from its document (the multi-step import).
[[nodiscard]] std::vector<Disagreement> compare_with_engine(const receipt::engine::GeneralReceipt& engine,
                                                            const reconcile::Json& sidecar,
                                                            reconcile::Tolerance tolerance);

}  // namespace importer
