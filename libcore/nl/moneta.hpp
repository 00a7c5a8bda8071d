#pragma once
// Moneta (nltrain-math §6.6): MLP memory, l_p attentional bias (p = 2: psi(e) = 2e), global L2
// retention lambda_2, alpha = retention. L_q retention with q != 2 is not supported (O-16).
#include "nl/mlp_l2_rule.hpp"

namespace nl {

template <typename T>
using Moneta = MlpL2Rule<T, RuleKind::moneta>;

}  // namespace nl
