#pragma once
// What Rule 14's comparisons report, in its texts: a claimed number beyond the differential
// tolerance (or non-finite), or a claim the engine's recomputation has and the receipt lacks (or
// the reverse). A comparison's path is given in pieces and spelled only when it fails: a record
// compares about a hundred numbers, and building each path was a tenth of Rule 14's time.
#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "reconcile/json_access.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile::rules::rule14 {

inline constexpr const char* kTag = "Rule 14 (engine-recompute differential): ";
inline constexpr const char* kCompleteTag = "Rule 14 (engine-recompute COMPLETENESS): ";

// A JSON string literal of `text`, as the messages quote ids.
[[nodiscard]] std::string json_quoted(std::string_view text);

// A path in pieces (views of strings that outlive it), joined only when a comparison fails. The
// walks extend a section's path piece by piece instead of concatenating strings at each level
// (phase 2 built about 60 strings a record that only a failure reads).
class PathPieces {
 public:
  static constexpr std::size_t kMaxPieces = 10;
  PathPieces() = default;
  PathPieces(std::initializer_list<std::string_view> pieces) { append(pieces); }
  // This path followed by `pieces`; throws std::length_error past kMaxPieces (a walk's bug).
  [[nodiscard]] PathPieces then(std::initializer_list<std::string_view> pieces) const;
  [[nodiscard]] std::string str() const;

 private:
  void append(std::initializer_list<std::string_view> pieces);

  std::array<std::string_view, kMaxPieces> pieces_;
  std::size_t size_ = 0;
};

// "[i]" for an array index: a view of a static text for i < 256, else of `spill`.
[[nodiscard]] std::string_view index_piece(std::size_t i, std::string& spill);

class Findings {
 public:
  Findings(Tolerance tolerance, FailureSink& out) : tol_(tolerance), out_(out) {}

  // The engine's number against the receipt's claim at the path the pieces spell when joined
  // (nothing when the claim is not a number). `extended`: phase 2's comparison, named so in the
  // message.
  void compare(std::initializer_list<std::string_view> path, double recomputed, const Json* claimed,
               bool extended = false);
  void compare(const PathPieces& path, double recomputed, const Json* claimed, bool extended = false);

  // A COMPLETENESS finding: `message` after the tag, the engine's number when it has one.
  void missing(const std::string& path, std::string message, std::optional<double> recomputed = std::nullopt,
               std::optional<std::string> parameter_id = std::nullopt);

 private:
  // The comparison, `spell()` giving the path only for a failure.
  template <class Spell>
  void compare_spelled(const Spell& spell, double recomputed, const Json* claimed, bool extended);
  // The comparison's failure, reported at `path`.
  void disagree(const std::string& path, double recomputed, double stored, const ToleranceCheck& c, bool extended);

  Tolerance tol_;
  FailureSink& out_;
};

}  // namespace reconcile::rules::rule14
