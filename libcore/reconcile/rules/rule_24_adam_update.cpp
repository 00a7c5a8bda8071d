// NOT YET IMPLEMENTED (placeholder so the library links while the rule is written).
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {

void check_rule_24_adam_update(RuleContext& /*ctx*/) {}

}  // namespace reconcile::rules
