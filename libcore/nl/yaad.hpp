#pragma once
// YAAD (nltrain-math §6.7): MLP memory, Huber bias (threshold huber_delta), decoupled retention:
// global L2 lambda_2 plus local L2 lambda_loc toward the chunk's initial state.
#include "nl/mlp_l2_rule.hpp"

namespace nl {

template <typename T>
using Yaad = MlpL2Rule<T, RuleKind::yaad>;

}  // namespace nl
