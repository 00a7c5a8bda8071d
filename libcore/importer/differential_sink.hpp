#pragma once
// What both forms of the differential (engine as a tree, engine as its struct) share: the
// tolerance check, each field path compared once, the disagreements in the order found.
#include <limits>
#include <memory_resource>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "importer/differential.hpp"
#include "reconcile/tolerance.hpp"

namespace importer::detail {

class DisagreementSink {
 public:
  explicit DisagreementSink(reconcile::Tolerance tolerance)
      : tol_(reconcile::clamp_tolerance(tolerance, reconcile::kDifferentialCeiling).effective) {}

  // From now on, what is found is bp's own comparison (`extended`).
  void set_extended() { extended_ = true; }

  // The engine's number against the sidecar's claim at `path`: nothing when the claim is not a
  // number or the path was compared (or found missing) before.
  void compare(std::string_view path, double recomputed, const nlohmann::ordered_json* stored) {
    if (!stored || !stored->is_number()) return;
    if (!first_time(path)) return;
    const double s = stored->get<double>();
    const auto c = reconcile::check_tolerance(recomputed, s, tol_);
    if (c.ok) return;
    out_.push_back({std::string(path), c.delta, c.applied, s, recomputed, extended_});
  }

  void missing(std::string_view path) {
    if (!first_time(path)) return;
    out_.push_back({std::string(path), std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, extended_});
  }

  [[nodiscard]] std::vector<Disagreement> take() { return std::move(out_); }

 private:
  bool first_time(std::string_view path) { return compared_.emplace(path).second; }

  reconcile::Tolerance tol_;
  bool extended_ = false;
  // Paths compared so far: hundreds per step, kept in one arena freed at once.
  std::pmr::monotonic_buffer_resource arena_{64 * 1024};
  std::pmr::unordered_set<std::pmr::string> compared_{1024, &arena_};
  std::vector<Disagreement> out_;
};

}  // namespace importer::detail
