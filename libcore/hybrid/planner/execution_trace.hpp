#pragma once
// APX 13.3.1: why the planner decided what it did, for one decision.
#include <string>
#include <vector>

#include "hybrid/planner/decision_rule.hpp"
#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

struct ExecutionDecisionTrace {
  std::string kernel_name;
  std::vector<DecisionRule> evaluated_rules;  // in order, up to and including the winner
  DecisionRule winning_rule = DecisionRule::gpu_preferred;
  ExecutionTarget target = ExecutionTarget::cpu;
  std::string reason;  // same text as ExecutionPlan::reason
};

}  // namespace hybrid
