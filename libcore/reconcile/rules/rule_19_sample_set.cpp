// NOT YET IMPLEMENTED (placeholder so the library links while the rule is written).
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_19_sample_set(RuleContext& /*ctx*/) {}

}  // namespace reconcile::rules
