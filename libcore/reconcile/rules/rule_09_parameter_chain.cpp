// Rule 9: the parameter chain. For every record after the first, each parameters_before value
// must equal the previous record's parameters_after value for the same id, within the CURRENT
// record's numeric_policy.tolerance clamped to its ceiling (observer or engine, by its authoring
// state). Only the previous record's parameters_after is kept between records.
//
// Field paths are "parameters_before.<id>" without a record prefix, as the reference prints them.
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

class ParameterChain final : public CrossRecordRule {
 public:
  void observe(std::size_t index, const Json& r) override {
    if (index > 0) check(r);
    prior_index_ = ObjectIndex();
    prior_after_ = Json();
    has_prior_after_ = false;
    if (r.is_object()) {
      const Json* after = member(r, "parameters_after");
      if (core::truthy(after) && js_object(*after)) {
        prior_after_ = *after;
        prior_index_ = ObjectIndex(&prior_after_);
        has_prior_after_ = true;
      }
    }
  }

  void finish(FailureSink& out) override { failures_.flush(out); }

  std::size_t retained_state() const override {
    return failures_.kept() + (has_prior_after_ ? retained_elements(prior_after_) : 0);
  }

 private:
  void check(const Json& cur) {
    if (!cur.is_object() || !has_prior_after_) return;
    const Json* policy = member(cur, "numeric_policy");
    const Json* declared = policy ? member(*policy, "tolerance") : nullptr;
    const auto tolerance = declared ? read_tolerance_policy(*declared) : std::nullopt;
    if (!tolerance) return;
    const Tolerance tol = clamp_tolerance(*tolerance, numeric_ceiling_for(cur)).effective;
    const Json* before_map = member(cur, "parameters_before");
    if (!core::truthy(before_map) || !js_object(*before_map)) return;
    auto prior_value = [&](std::string_view id) -> const Json* {
      if (prior_after_.is_object()) return prior_index_.find(id);
      return nullptr;  // an array parameters_after holds no parameter ids worth chaining
    };
    for (const auto& [id, before_value] : js_members(before_map)) {
      const auto before = as_number(before_value);
      const auto after = as_number(prior_value(id));
      if (!before || !after) continue;
      const auto c = check_tolerance(*before, *after, tol);
      if (c.ok) continue;
      const std::string path = "parameters_before." + std::string(id);
      std::string message =
          c.finite ? "Multi-step chain violation: " + path + " disagrees with prior step's parameters_after." +
                         std::string(id) + " (delta=" + js_number(c.delta) + ", tolerance=" + js_number(c.applied) + ")."
                   : "Multi-step chain non-finite value at " + path + ": before=" + js_number(*before) +
                         ", prior parameters_after=" + js_number(*after) + ".";
      failures_.add(numeric_failure(9, path, *before, *after, c, std::move(message), std::string(id)));
    }
  }

  Json prior_after_;
  ObjectIndex prior_index_;
  bool has_prior_after_ = false;
  CappedFailures failures_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_09_parameter_chain() { return std::make_unique<ParameterChain>(); }

}  // namespace reconcile::rules
