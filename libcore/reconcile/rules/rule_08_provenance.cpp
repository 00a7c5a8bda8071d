// Rule 8 (provenance): every named factor that claims a source with `from` (output error signal
// factors and optimizer factors) must hold the value found at that path, within tolerance. The
// failure's field_path is the referenced path; an unresolvable path fails with recomputed NaN.
#include <limits>
#include <string>

#include "reconcile/rules/core_rules.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

using namespace core;

// Many factors name the same path (forward.h1.out feeds every weight out of h1): resolve each once.
using PathCache = FlatStringMap<std::optional<std::optional<double>>>;  // outer empty: not resolved yet

template <class SitePath, class Pid>
void check_factor(RuleContext& ctx, PathCache& cache, Ref factor, std::string_view from, const SitePath& site_path,
                  const Pid& pid) {
  const Val stored = Val::of(lookup(factor, "value"));
  std::optional<double> resolved;
  if (const auto* hit = cache.find(from); hit && *hit) {
    resolved = **hit;
  } else {
    resolved = resolve_fast(ctx.receipt, from);
    cache.set(from, resolved);
  }
  if (!resolved) {
    Failure f;
    f.rule = 8;
    f.parameter_id = pid();
    f.field_path = std::string(from);
    f.stored = stored.output();
    f.recomputed = std::numeric_limits<double>::quiet_NaN();
    f.delta = std::numeric_limits<double>::quiet_NaN();
    f.tolerance = 0;
    f.message = "Provenance path " + js_stringify_text(from) + " could not be resolved (referenced from " +
                site_path() + "): " + resolve_path(ctx.receipt, from).reason + ".";
    ctx.failures.add(std::move(f));
    return;
  }
  const Val recomputed = Val::of_number(*resolved);
  const auto c = check(recomputed, stored, ctx.tolerance);
  if (c.ok) return;
  ctx.failures.add(numeric(8, pid(), std::string(from), stored, recomputed, c));
}

// The factors of one site; `from` must be a non-empty string to be checked.
template <class SitePath, class Pid>
void check_factors(RuleContext& ctx, PathCache& cache, KeyHint& k_from, const Json& factors, const SitePath& site_path,
                   const Pid& pid) {
  for (std::size_t j = 0; j < factors.size(); ++j) {
    const Ref factor = &factors[j];
    const Ref from = k_from.get(factor);
    if (!is_string(from) || from->string().empty()) continue;
    check_factor(ctx, cache, factor, from->string(), [&] { return site_path(j); }, pid);
  }
}

}  // namespace

void check_rule_08_provenance(RuleContext& ctx) {
  PathCache cache;
  KeyHint k_from("from"), k_optimizer("optimizer"), k_factors("factors");
  const Ref signals = opt(lookup(&ctx.receipt, "backward"), "output_error_signals");
  if (truthy(signals) && is_object(signals)) {
    const KeyList units(signals);
    for (std::size_t i = 0; i < units.size(); ++i) {
      const Ref unit = units.value(i);
      if (!truthy(unit) || !is_object(unit)) continue;
      const Ref factors = lookup(unit, "factors");
      if (!is_array(factors)) continue;
      const std::string_view id = units.key(i);
      check_factors(
          ctx, cache, k_from, *factors,
          [&](std::size_t j) {
            return "backward.output_error_signals." + std::string(id) + ".factors[" + std::to_string(j) + "].value";
          },
          [&] { return std::optional<std::string>(std::string(id)); });
    }
  }
  const Json& updates = *lookup(&ctx.receipt, "updates");
  for (std::size_t i = 0; i < updates.size(); ++i) {
    const Ref update = &updates[i];
    const Ref factors = k_factors.opt(k_optimizer.get(update));
    if (!is_array(factors)) continue;
    check_factors(
        ctx, cache, k_from, *factors,
        [&](std::size_t j) { return "updates[" + std::to_string(i) + "].optimizer.factors[" + std::to_string(j) + "].value"; },
        [&] { return parameter_id(lookup(update, "parameter_id")); });
  }
}

}  // namespace reconcile::rules
