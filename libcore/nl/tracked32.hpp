#pragma once
// The scalars of way (b)'s audit (bp verify nltrain): a binary64 value and a bound on how far an
// fp32 (Tracked32) or another binary64 (Tracked64: an fp64 run's receipt, whose BLAS may sum in
// another order) evaluation of the same formula can be (common/tracked.hpp). Every numeric
// template of nl that runs at float and double is also instantiated at both; the unqualified math
// calls (exp, sqrt, ...) resolve through the using-declarations below for float and double, and
// by argument-dependent lookup for the audit scalars.
#include <algorithm>
#include <cmath>

#include "common/tracked.hpp"

namespace nl {

using Tracked32 = common::Tracked<float>;
using Tracked64 = common::Tracked<double>;

using std::abs;
using std::exp;
using std::fabs;
using std::isfinite;
using std::log;
using std::log1p;
using std::max;
using std::min;
using std::pow;
using std::sqrt;
using std::tanh;

}  // namespace nl
