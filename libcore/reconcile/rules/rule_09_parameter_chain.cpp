// NOT YET IMPLEMENTED (placeholder so the library links while the rule is written).
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

class Placeholder final : public CrossRecordRule {
 public:
  void observe(std::size_t, const Json&) override {}
  void finish(FailureSink&) override {}
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_09_parameter_chain() { return std::make_unique<Placeholder>(); }

}  // namespace reconcile::rules
