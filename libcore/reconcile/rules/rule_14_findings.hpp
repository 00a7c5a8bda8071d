#pragma once
// What Rule 14's comparisons report, in its texts: a claimed number beyond the differential
// tolerance (or non-finite), or a claim the engine's recomputation has and the receipt lacks (or
// the reverse). Remembers every path compared, so that phase 2 compares a place only once.
#include <optional>
#include <string>
#include <unordered_set>

#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile::rules::rule14 {

inline constexpr const char* kTag = "Rule 14 (engine-recompute differential): ";
inline constexpr const char* kCompleteTag = "Rule 14 (engine-recompute COMPLETENESS): ";

class Findings {
 public:
  Findings(Tolerance tolerance, FailureSink& out) : tol_(tolerance), out_(out) {}

  // The engine's number against the receipt's claim at `path` (nothing when the claim is not a
  // number). `extended`: phase 2's comparison, named so in the message.
  void compare(const std::string& path, double recomputed, const Json* claimed, bool extended = false);

  // A COMPLETENESS finding: `message` after the tag, the engine's number when it has one.
  void missing(const std::string& path, std::string message, std::optional<double> recomputed = std::nullopt,
               std::optional<std::string> parameter_id = std::nullopt);

  [[nodiscard]] bool compared(const std::string& path) const { return compared_.count(path) != 0; }

 private:
  Tolerance tol_;
  FailureSink& out_;
  std::unordered_set<std::string> compared_;
};

}  // namespace reconcile::rules::rule14
