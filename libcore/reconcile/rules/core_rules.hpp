#pragma once
// What rules 0-8 and 11-13 share: the tolerance check on JavaScript-typed values, failure
// records in the reference's shape, the left-to-right product, the sum in a declared order, the
// cascade key of a parameter id, and a Rule 8 path resolver that builds no text unless it fails.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/rule_context.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile::rules::core {

inline constexpr const char* kLeftToRight = "left_to_right";

// applyToleranceCheck(a, b): both must be finite numbers (typeof "number"), else not finite.
[[nodiscard]] ToleranceCheck check(Val a, Val b, Tolerance t) noexcept;
// A sum of terms whose magnitudes add to `terms`: judged against them when `terms_scaled`
// (RuleContext::term_scaled_sums), else as check() does.
[[nodiscard]] ToleranceCheck check_sum(Val sum, Val stored, Tolerance t, bool terms_scaled, double terms) noexcept;
// |a.num| + |b.num| for the two operands of an add() (NaN unless both are numbers).
[[nodiscard]] double terms_of(Val a, Val b) noexcept;

// The receipt's parameter id as the failure carries it (only strings can be rendered).
[[nodiscard]] std::optional<std::string> parameter_id(Ref v);
[[nodiscard]] inline std::optional<std::string> parameter_id(std::string_view v) { return std::string(v); }

// recordFailure / priorFailureRule keys: undefined is never recorded.
void record(CascadeTracker& cascades, int rule, Ref parameter_id);
void record(CascadeTracker& cascades, int rule, std::string_view parameter_id);
[[nodiscard]] std::optional<int> prior(const CascadeTracker& cascades, Ref parameter_id, std::initializer_list<int> rules);
[[nodiscard]] std::optional<int> prior(const CascadeTracker& cascades, std::string_view parameter_id,
                                       std::initializer_list<int> rules);

// A structural (rule 0) record: stored/recomputed/delta/tolerance all 0, as the reference writes them.
[[nodiscard]] Failure structural(std::optional<std::string> parameter_id, std::string field_path, std::string message);

// A numeric rule's record from a failed check: delta NaN and tolerance 0 when not finite, with the
// reference's "Non-finite arithmetic" message then.
[[nodiscard]] Failure numeric(int rule, std::optional<std::string> parameter_id, std::string field_path, Val stored,
                              Val recomputed, const ToleranceCheck& c);

// The factor list a failure shows (name, from, value as far as they are typed).
[[nodiscard]] std::vector<Factor> factor_list(Ref factors);

// multiplyFactorsLeftToRight(factors) for a non-empty array: one factor is its raw value; more
// are ToNumber'd and multiplied left to right. Throws JsTypeError on a null factor.
[[nodiscard]] Val multiply_left_to_right(const Json& factors);
[[nodiscard]] Val multiply_left_to_right(const Json& factors, KeyHint& value_key);

// sumInOrder(items, order, item => item[key_name], item => item[value_name]): the first item whose
// key is === each order entry, summed with JavaScript's `+` in order; NaN when one is missing.
// `terms`, when given, gets the sum of the terms' magnitudes (|ToNumber| of each).
[[nodiscard]] Val sum_in_order(const Json& items, const Json& order, std::string_view key_name,
                               std::string_view value_name, double* terms = nullptr);

// resolvePath(receipt, path) without building text on success; nullopt when it does not resolve
// to a finite number (then resolve_path() gives the reason).
[[nodiscard]] std::optional<double> resolve_fast(const Json& root, std::string_view path) noexcept;

// readOptimizerConfig(r)?.name etc.
struct OptimizerConfig {
  bool present = false;  // an object with a string name
  std::optional<std::string_view> name;
  Ref weight_decay = nullptr;
};
[[nodiscard]] OptimizerConfig read_optimizer_config(const Json& receipt) noexcept;

// fixture_status?.authoring_state
[[nodiscard]] Ref authoring_state(const Json& receipt) noexcept;

}  // namespace reconcile::rules::core
