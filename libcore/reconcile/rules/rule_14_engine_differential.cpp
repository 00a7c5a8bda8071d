// NOT YET IMPLEMENTED (placeholder so the library links while the rule is written).
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

Rule14Outcome check_rule_14_engine_differential(RuleContext& /*ctx*/) { return {}; }

}  // namespace reconcile::rules
