#pragma once
// What both forms of the differential (engine as a tree, engine as its struct) share: the
// tolerance check, each field path compared once, the disagreements in the order found.
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/address_set.hpp"
#include "importer/differential.hpp"
#include "reconcile/tolerance.hpp"

namespace importer::detail {

class DisagreementSink {
 public:
  explicit DisagreementSink(reconcile::Tolerance tolerance)
      : tol_(reconcile::clamp_tolerance(tolerance, reconcile::kDifferentialCeiling).effective) {}

  // From now on, what is found is bp's own comparison (`extended`).
  void set_extended() { extended_ = true; }

  // The engine's number against the sidecar's claim `stored`, found at `path`: nothing when the
  // claim is not a number or was compared before. `path` is a string, or a function that spells
  // it, called only when the claim disagrees (most steps agree everywhere: hundreds of paths a
  // step were spelled and hashed for nothing).
  template <typename Path, typename V>
  void compare(const Path& path, double recomputed, const V* stored) {
    if (!stored || !stored->is_number()) return;
    // A claim is one node of the sidecar's tree, so the node says whether its path was compared.
    if (!compared_.insert(stored)) return;
    const double s = stored->template get<double>();
    const auto c = reconcile::check_tolerance(recomputed, s, tol_);
    if (c.ok) return;
    out_.push_back({spell(path), c.delta, c.applied, s, recomputed, extended_});
  }

  // No number at `path` (a string, or a function that spells it); reported once a path.
  template <typename Path>
  void missing(const Path& path) {
    std::string p = spell(path);
    if (!missing_.insert(p).second) return;
    out_.push_back({std::move(p), std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, extended_});
  }

  [[nodiscard]] std::vector<Disagreement> take() { return std::move(out_); }

 private:
  template <typename Path>
  static std::string spell(const Path& path) {
    if constexpr (std::is_invocable_v<const Path&>) {
      return std::string(path());
    } else {
      return std::string(path);
    }
  }

  reconcile::Tolerance tol_;
  bool extended_ = false;
  // The claims compared so far (hundreds a step). Paths where a number is missing are kept apart:
  // no number stands there to be compared.
  common::AddressSet compared_{512};
  std::unordered_set<std::string> missing_;
  std::vector<Disagreement> out_;
};

}  // namespace importer::detail
