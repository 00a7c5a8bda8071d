#include "reconcile/rules/rule_14_findings.hpp"

#include <utility>

#include "reconcile/rules/optim_common.hpp"

namespace reconcile::rules::rule14 {

std::string json_quoted(std::string_view text) { return Tree(std::string(text)).dump(); }

void Findings::compare(std::initializer_list<std::string_view> pieces, double recomputed, const Json* claimed,
                       bool extended) {
  if (!claimed || !claimed->is_number()) return;  // shape is the schema's domain
  const double stored = claimed->get<double>();
  const auto c = check_tolerance(recomputed, stored, tol_);
  if (c.ok) return;
  std::string path;
  for (std::string_view piece : pieces) path += piece;
  // The reference names no parameter on these.
  std::string message =
      c.finite ? std::string(kTag) + (extended ? "(extended) " : "") + "foreign claim at " + path + " (" +
                     js_number(stored) + ") disagrees with engine recomputation (" + js_number(recomputed) +
                     ") beyond differential_tolerance (atol=" + js_number(tol_.atol) + ", rtol=" + js_number(tol_.rtol) +
                     ")."
               : std::string(kTag) + "non-finite arithmetic at " + path + ". Engine recomputed " + js_number(recomputed) +
                     "; receipt claimed " + js_number(stored) + ".";
  out_.add(numeric_failure(14, path, stored, recomputed, c, std::move(message)));
}

void Findings::missing(const std::string& path, std::string message, std::optional<double> recomputed,
                       std::optional<std::string> parameter_id) {
  Failure f = plain_failure(14, path, std::string(kCompleteTag) + std::move(message), std::move(parameter_id));
  if (recomputed) f.recomputed = *recomputed;
  out_.add(std::move(f));
}

}  // namespace reconcile::rules::rule14
